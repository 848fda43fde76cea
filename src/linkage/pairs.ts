/** Candidate pairs (a < b), appended as blocking finds them. */
export class PairBuffer {
  a: Int32Array;
  b: Int32Array;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
  }

  push(x: number, y: number): void {
    if (this.length === this.a.length) this.grow();
    if (x < y) {
      this.a[this.length] = x;
      this.b[this.length] = y;
    } else {
      this.a[this.length] = y;
      this.b[this.length] = x;
    }
    this.length++;
  }

  protected grow(): void {
    const size = this.a.length * 2;
    const a = new Int32Array(size);
    const b = new Int32Array(size);
    a.set(this.a);
    b.set(this.b);
    this.a = a;
    this.b = b;
  }

  /** Blocking is over: no pair will be added. */
  close(): void {}
}

/** The most pairs a SharedPairBuffer can hold (its memory is reserved up front, committed as it fills). */
export const MAX_SHARED_PAIRS = 1 << 28;

/**
 * Pairs on growable shared memory, published to other threads as they are found, so that scoring threads work
 * while blocking still runs. Every `step` pairs (and on close) `onPublish` is told how many pairs are final; pairs
 * never move once written. Views are fixed-length and remade on growth: length-tracking views over growable memory
 * read an order of magnitude slower.
 */
export class SharedPairBuffer extends PairBuffer {
  readonly bufferA: SharedArrayBuffer;
  readonly bufferB: SharedArrayBuffer;
  private nextPublish: number;

  constructor(
    private readonly onPublish: (length: number, closed: boolean) => void,
    private readonly step = 1 << 18,
    capacity = 1 << 20,
  ) {
    super(0);
    const max = MAX_SHARED_PAIRS * 4;
    this.bufferA = new SharedArrayBuffer(capacity * 4, { maxByteLength: max });
    this.bufferB = new SharedArrayBuffer(capacity * 4, { maxByteLength: max });
    this.a = new Int32Array(this.bufferA, 0, capacity);
    this.b = new Int32Array(this.bufferB, 0, capacity);
    this.nextPublish = step;
  }

  override push(x: number, y: number): void {
    super.push(x, y);
    if (this.length === this.nextPublish) {
      this.nextPublish += this.step;
      this.onPublish(this.length, false);
    }
  }

  protected override grow(): void {
    const size = Math.min(this.a.length * 2, MAX_SHARED_PAIRS);
    if (size === this.a.length) {
      throw new Error(`more than ${MAX_SHARED_PAIRS} candidate pairs: split the input or tighten blocking`);
    }
    this.bufferA.grow(size * 4);
    this.bufferB.grow(size * 4);
    this.a = new Int32Array(this.bufferA, 0, size);
    this.b = new Int32Array(this.bufferB, 0, size);
  }

  override close(): void {
    this.onPublish(this.length, true);
  }
}
