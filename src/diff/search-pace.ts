// A region search's clock and progress: the deadline read every 16th step (Date.now() is not free
// at a million steps), and a progress line every 32 rule positions of the top-level walk.

export class SearchPace {
  private steps = 0;
  /** The deadline has passed: once true, every later step stops at once. */
  timedOut = false;

  constructor(
    private readonly deadline: number | undefined,
    private readonly onProgress: ((done: number, total: number) => void) | undefined,
    private readonly total: number,
  ) {}

  outOfTime(): boolean {
    if (this.timedOut) return true;
    if (this.deadline === undefined || ++this.steps % 16 !== 1) return false;
    this.timedOut = Date.now() > this.deadline;
    return this.timedOut;
  }

  progress(pos: readonly number[]): void {
    if (this.onProgress === undefined) return;
    const done = pos.reduce((sum, at) => sum + at, 0);
    if (done % 32 === 0) this.onProgress(done, this.total);
  }
}
