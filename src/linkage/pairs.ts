/** A growable list of record-index pairs (a < b), as two Int32 columns. */
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

  private grow(): void {
    const size = this.a.length * 2;
    const a = new Int32Array(size);
    const b = new Int32Array(size);
    a.set(this.a);
    b.set(this.b);
    this.a = a;
    this.b = b;
  }

  /** Exact-size copies on shared memory, for worker threads. */
  shared(): { a: Int32Array; b: Int32Array; length: number } {
    const a = new Int32Array(new SharedArrayBuffer(Math.max(4, this.length * 4)));
    const b = new Int32Array(new SharedArrayBuffer(Math.max(4, this.length * 4)));
    a.set(this.a.subarray(0, this.length));
    b.set(this.b.subarray(0, this.length));
    return { a, b, length: this.length };
  }
}
