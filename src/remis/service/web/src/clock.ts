// Clock faces as players read them: h:mm:ss from an hour up, m:ss below it,
// and tenths under ten seconds (0:09.7). A clock shows the time left rounded
// down, as a chess clock does: 59.97 s is 0:59, and 0:00.0 only when the flag
// has fallen.

export function clockText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  // tenths as a whole number first, so that 2.9999999 from float arithmetic is not 2.9
  const tenths = Math.floor(Math.max(0, seconds) * 10 + 1e-6);
  const whole = Math.floor(tenths / 10);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const ss = String(s).padStart(2, '0');
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${ss}`;
  if (whole < 10) return `${m}:${ss}.${tenths % 10}`;
  return `${m}:${ss}`;
}

/**
 * A game's two clocks as the server last gave them: the times at its clock's
 * `at`, which one runs from then (null: they stand), and how long it had
 * already run when the answer was made, counted on from the moment it arrived.
 */
export class Clocks {
  private times: Record<'white' | 'black', number | null> = { white: null, black: null };
  private running: 'white' | 'black' | null = null;
  private since = 0;

  /** `ranAlready`: seconds the running clock had run when the answer was made. */
  set(
    times: Record<'white' | 'black', number | null> | undefined,
    running: 'white' | 'black' | null,
    ranAlready = 0,
  ): void {
    this.times = { white: times?.white ?? null, black: times?.black ?? null };
    this.running = running;
    this.since = performance.now() - Math.max(0, ranAlready) * 1000;
  }

  /** Seconds left on `color`'s clock now (null: no clock). */
  left(color: 'white' | 'black'): number | null {
    const base = this.times[color];
    if (base === null) return null;
    if (this.running !== color) return base;
    return Math.max(0, base - (performance.now() - this.since) / 1000);
  }

  runs(color: 'white' | 'black'): boolean {
    return this.running === color;
  }
}
