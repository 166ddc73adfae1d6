/**
 * Bytes written and read in order: unsigned varints (7 bits a byte, low first, as protobuf's),
 * zigzag for signed whole numbers, float64 little-endian, UTF-8 text with its length first.
 * Whole numbers go up to 2^53 (JavaScript's safe integers), by arithmetic rather than 32-bit
 * bitwise operators.
 */

const VARINT_BASE = 128;
/** A varint of a safe integer takes at most 8 bytes (7 × 8 = 56 bits ≥ 53). */
const MAX_VARINT_BYTES = 8;

/** A signed whole number as an unsigned one, small either side of 0: 0, -1, 1, -2 → 0, 1, 2, 3. */
export function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

export function unzigzag(value: number): number {
  return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
}

export class ByteWriter {
  private buffer = new Uint8Array(1024);
  private length = 0;
  private readonly float = new DataView(new ArrayBuffer(8));

  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  /** A whole number in [0, 2^53). */
  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Not a varint: ${value}`);
    this.reserve(MAX_VARINT_BYTES);
    let rest = value;
    while (rest >= VARINT_BASE) {
      this.buffer[this.length++] = (rest % VARINT_BASE) + VARINT_BASE;
      rest = Math.floor(rest / VARINT_BASE);
    }
    this.buffer[this.length++] = rest;
  }

  signed(value: number): void {
    this.varint(zigzag(value));
  }

  /** Any double, bit for bit (NaN, ±Infinity and -0 included). */
  float64(value: number): void {
    this.float.setFloat64(0, value, true);
    this.reserve(8);
    for (let index = 0; index < 8; index += 1) this.buffer[this.length++] = this.float.getUint8(index);
  }

  text(value: string): void {
    const bytes = new TextEncoder().encode(value);
    this.varint(bytes.length);
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  private reserve(count: number): void {
    if (this.length + count <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + count));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

/** Reads what a ByteWriter wrote; throws a RangeError on bytes that end too soon or say what cannot be. */
export class ByteReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly buffer: Uint8Array) {
    this.view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  get done(): boolean {
    return this.offset === this.buffer.length;
  }

  byte(): number {
    if (this.offset >= this.buffer.length) throw new RangeError('The packed bytes end too soon');
    return this.buffer[this.offset++]!;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let index = 0; index < MAX_VARINT_BYTES; index += 1) {
      const byte = this.byte();
      value += (byte % VARINT_BASE) * scale;
      if (byte < VARINT_BASE) {
        if (!Number.isSafeInteger(value)) break;
        return value;
      }
      scale *= VARINT_BASE;
    }
    throw new RangeError('A varint in the packed bytes is too long');
  }

  signed(): number {
    return unzigzag(this.varint());
  }

  float64(): number {
    if (this.offset + 8 > this.buffer.length) throw new RangeError('The packed bytes end too soon');
    const value = this.view.getFloat64(this.offset, true);
    this.offset += 8;
    return value;
  }

  text(): string {
    const length = this.varint();
    if (this.offset + length > this.buffer.length) throw new RangeError('The packed bytes end too soon');
    const bytes = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  }
}
