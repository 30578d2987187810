import { h, svg } from "./dom.js";
import { pounds, shortDate } from "./format.js";

const kindNames = {
  data: "Data",
  align: "Align",
  genie_chat: "Genie chat",
  chat: "Custom chat",
  questions: "Questions",
  account: "Account",
};

function isoDay(date) {
  return date.toISOString().slice(0, 10);
}

/** Stacked daily bars of calls by kind, with a legend and the same figures as a table for screen readers. */
export function usageChart(rows, days = 30, today = new Date()) {
  const dates = [];
  for (let offset = days - 1; offset >= 0; offset -= 1) {
    dates.push(
      isoDay(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - offset))),
    );
  }
  // Only kinds with calls get a colour and a legend entry; the server lists every kind, used or not.
  const kinds = [...new Set(rows.filter((row) => row.calls > 0).map((row) => row.kind))].sort();
  const byDay = new Map(dates.map((date) => [date, new Map()]));
  const totals = new Map(kinds.map((kind) => [kind, { calls: 0, spendPence: 0 }]));
  for (const row of rows) {
    const day = byDay.get(row.date);
    if (!day || row.calls === 0) continue;
    const entry = day.get(row.kind) ?? { calls: 0, spendPence: 0 };
    entry.calls += row.calls;
    entry.spendPence += row.spendPence;
    day.set(row.kind, entry);
    const total = totals.get(row.kind);
    total.calls += row.calls;
    total.spendPence += row.spendPence;
  }
  const dayTotals = dates.map((date) =>
    [...byDay.get(date).values()].reduce((sum, entry) => sum + entry.calls, 0),
  );
  const maximum = Math.max(1, ...dayTotals);
  const allCalls = dayTotals.reduce((sum, value) => sum + value, 0);
  const allSpend = [...totals.values()].reduce((sum, entry) => sum + entry.spendPence, 0);

  const width = 600;
  const height = 180;
  const left = 34;
  const bottom = 20;
  const plotHeight = height - bottom - 8;
  const slot = (width - left) / days;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": `Calls per day over the last ${days} days: ${allCalls} calls, ${pounds(allSpend)} spent.`,
  });
  chart.append(
    svg("line", { class: "axis", x1: left, y1: 8 + plotHeight, x2: width, y2: 8 + plotHeight }),
    svg("text", { x: left - 4, y: 12, "text-anchor": "end" }, String(maximum)),
    svg("text", { x: left - 4, y: 8 + plotHeight, "text-anchor": "end" }, "0"),
  );
  dates.forEach((date, index) => {
    let y = 8 + plotHeight;
    const x = left + index * slot + 1;
    for (const [kindIndex, kind] of kinds.entries()) {
      const entry = byDay.get(date).get(kind);
      if (!entry?.calls) continue;
      const barHeight = (entry.calls / maximum) * plotHeight;
      y -= barHeight;
      chart.append(
        svg(
          "rect",
          { class: `kind-${kindIndex % 6}`, x, y, width: Math.max(1, slot - 2), height: barHeight },
          svg(
            "title",
            {},
            `${date}: ${entry.calls} ${kindNames[kind] ?? kind} calls, ${pounds(entry.spendPence)}`,
          ),
        ),
      );
    }
    if (index % 7 === 0 || index === days - 1) {
      chart.append(
        svg(
          "text",
          { x: x + slot / 2, y: height - 4, "text-anchor": "middle" },
          shortDate(new Date(`${date}T00:00:00Z`)),
        ),
      );
    }
  });

  const legend = h(
    "ul",
    { class: "legend" },
    kinds.map((kind, index) =>
      h(
        "li",
        {},
        h("span", { class: `swatch kind-${index % 6}`, "aria-hidden": "true" }),
        `${kindNames[kind] ?? kind}: ${totals.get(kind).calls} calls, ${pounds(totals.get(kind).spendPence)}`,
      ),
    ),
  );
  const table = h(
    "details",
    {},
    h("summary", {}, "Show the figures as a table"),
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Day"),
            h("th", { scope: "col" }, "Calls"),
            h("th", { scope: "col" }, "Spend"),
          ),
        ),
        h(
          "tbody",
          {},
          dates
            .filter((date, index) => dayTotals[index] > 0)
            .map((date) => {
              const entries = [...byDay.get(date).values()];
              return h(
                "tr",
                {},
                h("td", {}, date),
                h("td", {}, String(entries.reduce((sum, entry) => sum + entry.calls, 0))),
                h("td", {}, pounds(entries.reduce((sum, entry) => sum + entry.spendPence, 0))),
              );
            }),
        ),
      ),
    ),
  );
  return h(
    "div",
    { class: "chart" },
    allCalls === 0 ? h("p", { class: "muted" }, "No calls in the last 30 days yet.") : null,
    chart,
    legend,
    allCalls === 0 ? null : table,
  );
}
