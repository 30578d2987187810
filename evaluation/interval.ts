/**
 * Wilson score interval for a proportion: how far a rate measured on `total` items may sit from the true rate. A
 * held-out set has about 130 high-severity items, so 94.6% there is compatible with anything from about 89% to 97%;
 * printing the interval keeps one set's figure from being read as more exact than it is.
 */
export function wilsonInterval(
  successes: number,
  total: number,
  z = 1.959964,
): { low: number; high: number } {
  if (total === 0) return { low: 0, high: 1 };
  const rate = successes / total;
  const zSquared = z * z;
  const denominator = 1 + zSquared / total;
  const centre = (rate + zSquared / (2 * total)) / denominator;
  const halfWidth =
    (z * Math.sqrt((rate * (1 - rate)) / total + zSquared / (4 * total * total))) / denominator;
  return { low: Math.max(0, centre - halfWidth), high: Math.min(1, centre + halfWidth) };
}
