/** What each paid call costs, in pence (VAT excluded). Scheduled changes are applied by effective date. */
export interface PriceList {
  alignPence: number;
  genieChatPence: number;
  chatPence: number;
  questionSetPence: number;
}

export const launchPrices: PriceList = {
  alignPence: 1,
  genieChatPence: 4,
  chatPence: 4,
  questionSetPence: 8,
};

export const topUpAmountsPence = [1000, 2500, 10000] as const;
