import { describe, expect, it } from 'vitest';
import { object, type Struct } from 'superstruct';
import {
  boundedJson,
  boundedList,
  boundedNumber,
  calendarDate,
  emailAddress,
  epochMs,
  ianaZone,
  idInt,
  imageDataUrl,
  int32,
  openObject,
  requiredText,
  safeInteger,
  safeText,
} from './primitives';
import { validate } from './schemas';

const message = (struct: Struct<any, any>, value: unknown) => {
  const r = validate({ v: value }, object({ v: struct }));
  return r.ok ? undefined : r.violations[0].message;
};

describe('contract primitives', () => {
  it('safeText refuses NUL, control characters and lone surrogates but keeps tabs, new lines and emoji', () => {
    const t = safeText(20);
    expect(message(t, 'a\u0000b')).toBe('must not contain control characters');
    expect(message(t, 'a\u001bb')).toBe('must not contain control characters');
    expect(message(t, 'a\u0085b')).toBe('must not contain control characters');
    expect(message(t, 'a\uD800b')).toMatch(/unpaired surrogate/);
    expect(message(t, '\uDC00')).toMatch(/unpaired surrogate/);
    expect(message(t, 'a\tb\r\nc 😀')).toBeUndefined();
    expect(message(t, 'x'.repeat(21))).toBe('must be at most 20 characters');
    expect(message(t, 5)).toBe('must be text');
  });

  it('requiredText refuses blank text and trims when asked', () => {
    expect(message(requiredText(10), '   ')).toBe('is required');
    expect(message(requiredText(10), undefined)).toBe('is required');
    const r = validate({ v: '  Ann  ' }, object({ v: requiredText(3, { trim: true }) }));
    expect(r).toEqual({ ok: true, value: { v: 'Ann' } });
  });

  it('calendarDate refuses impossible dates and years outside 1900..2999', () => {
    for (const bad of ['2025-02-30', '2025-13-01', '0000-00-00', '2023-02-29', '1899-12-31', '3000-01-01', '2025-1-01', '2025-01-01T00:00']) {
      expect(message(calendarDate(), bad), bad).toBeDefined();
    }
    expect(message(calendarDate(), '2025-02-30')).toBe('is not a real calendar date');
    for (const good of ['2024-02-29', '1900-01-01', '2999-12-31', '2025-04-30']) expect(message(calendarDate(), good), good).toBeUndefined();
  });

  it('int32 and idInt keep numbers inside a PostgreSQL integer', () => {
    expect(message(int32(), 2147483647)).toBeUndefined();
    expect(message(int32(), -2147483648)).toBeUndefined();
    expect(message(int32(), 2147483648)).toBe('must be at most 2147483647');
    expect(message(int32(), 9223372036854775808)).toBe('must be at most 2147483647');
    expect(message(int32(), 1.5)).toBe('must be a whole number');
    expect(message(idInt(), 0)).toBe('must be a positive whole number');
    expect(message(idInt(), '1')).toBe('must be a whole number');
  });

  it('boundedNumber refuses NaN, Infinity and absurd magnitudes', () => {
    const n = boundedNumber(-1000, 1000);
    expect(message(n, 1e308)).toBe('must be at most 1000');
    expect(message(n, Number.NaN)).toBe('must be a number');
    expect(message(n, Number.POSITIVE_INFINITY)).toBe('must be a number');
    expect(message(n, 12.5)).toBeUndefined();
  });

  it('ianaZone knows real zones and refuses invented ones', () => {
    for (const good of ['UTC', 'Europe/London', 'Asia/Kuala_Lumpur', 'America/Argentina/Buenos_Aires', 'Etc/UTC']) {
      expect(message(ianaZone(), good), good).toBeUndefined();
    }
    for (const bad of ['Mars/Phobos', '', 'europe/london', 'Europe/London\u0000', 'x'.repeat(100)]) {
      expect(message(ianaZone(), bad), bad).toBeDefined();
    }
  });

  it('imageDataUrl takes a bounded image data: URL and never a link', () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const img = imageDataUrl(png.length);
    expect(message(img, `data:image/png;base64,${png.toString('base64')}`)).toBeUndefined();
    expect(message(imageDataUrl(png.length - 1), `data:image/png;base64,${png.toString('base64')}`)).toBe(
      `must be an image of at most ${png.length - 1} bytes`,
    );
    expect(message(img, 'https://evil.example/x.png')).toMatch(/not a link/);
    expect(message(img, 'data:image/svg+xml;base64,PHN2Zz4=')).toMatch(/PNG, JPEG, WebP or GIF/);
    expect(message(img, 'data:image/png;base64,abc')).toMatch(/PNG, JPEG/);
  });

  it('imageDataUrl takes a whole image of any of its formats, and refuses one cut short, damaged or of no image format (issue 45)', () => {
    const url = (b: Buffer, type = 'png') => `data:image/${type};base64,${b.toString('base64')}`;
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(40, 7), Buffer.from([0xff, 0xd9])]);
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20, 1), Buffer.from([0x3b])]);
    const webpBody = Buffer.concat([Buffer.from('WEBP'), Buffer.alloc(22, 2)]);
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from(Uint32Array.of(webpBody.length).buffer), webpBody]);
    const img = imageDataUrl(10_000);
    for (const [name, whole] of [
      ['png', png],
      ['jpeg', jpeg],
      ['gif', gif],
      ['webp', webp],
    ] as const) {
      expect(message(img, url(whole, name)), name).toBeUndefined();
      expect(message(img, url(whole, 'jpeg')), `${name} named as a JPEG`).toBeUndefined(); // the content decides
      for (const at of [1, Math.floor(whole.length / 2), whole.length - 1]) {
        const cut = whole.subarray(0, at);
        expect(message(img, url(cut, name)), `${name} cut at ${at}`).toMatch(/cut short or damaged|not one/);
      }
    }
    expect(message(img, url(Buffer.concat([jpeg, Buffer.alloc(4)]), 'jpeg'))).toBeUndefined(); // padding after EOI
    const damaged = Buffer.from(png);
    damaged.fill(0, damaged.length - 8);
    expect(message(img, url(damaged))).toBe('must be a whole image: the file is cut short or damaged');
    const pixels = Buffer.from(png);
    pixels[png.indexOf('IDAT') + 6] ^= 0xff; // inside the compressed pixels: only the chunk's CRC tells
    expect(message(img, url(pixels))).toBe('must be a whole image: the file is cut short or damaged');
    expect(message(img, url(Buffer.alloc(30)))).toBe('must be a PNG, JPEG, WebP or GIF image (its content is not one)');
  });

  it('boundedList refuses a long list without checking its items', () => {
    const list = boundedList(int32(1, 7), 7);
    expect(message(list, [1, 2, 3])).toBeUndefined();
    expect(
      message(
        list,
        Array.from({ length: 100_000 }, () => 'x'),
      ),
    ).toBe('must have at most 7 items');
    const r = validate({ v: [1, 9] }, object({ v: list }));
    expect(r.ok ? [] : r.violations).toEqual([{ field: 'v.1', message: 'must be at most 7', code: 'number.tooLarge', values: { max: 7 } }]);
  });

  it('boundedJson checks every string, key and number inside and names the place (issue 27)', () => {
    const json = boundedJson(200, 4);
    const where = (value: unknown) => {
      const r = validate({ v: value }, object({ v: json }));
      return r.ok ? [] : r.violations;
    };
    expect(where({ a: [1, 2.5, -3, 'Lobby\t😀', null, true, { b: 'c' }] })).toEqual([]);
    expect(where({ a: ['ok', 'nul\u0000'] })).toMatchObject([{ field: 'v.a.1', message: 'must not contain control characters' }]);
    expect(where(['\uD800'])).toMatchObject([{ field: 'v.0', message: 'must not contain broken (unpaired surrogate) characters' }]);
    expect(where({ ['k\u0000']: 1 })).toMatchObject([{ field: 'v', message: 'has a key that must not contain control characters' }]);
    expect(where({ n: 1e308 })[0].field).toBe('v.n');
    expect(where({ n: 2 ** 53 + 1 })[0].message).toMatch(/must be a number between/);
    expect(where({ n: -1e308 })[0].field).toBe('v.n');
    expect(where([[[[['too deep']]]]])).toMatchObject([{ field: 'v.0.0.0.0', message: 'is nested too deeply (at most 4 levels)' }]);
    expect(where('x'.repeat(300))).toMatchObject([{ field: 'v', message: 'must be at most 200 characters of data' }]);
    expect(where({ a: 'x'.repeat(150), b: 'y'.repeat(150) })).toMatchObject([{ field: 'v', message: 'must be at most 200 characters of data' }]);
    expect(json.schema).toEqual({ maxChars: 200, maxDepth: 4 });
  });

  it('openObject checks the fields it does not name with its extra struct', () => {
    const event = openObject({ type: safeText(20, { min: 1 }) }, boundedJson(100));
    const r = validate({ type: 'typed', text: 'fine', more: { x: 'bad\u0000' } }, event);
    expect(r.ok ? [] : r.violations).toMatchObject([{ field: 'more.x', message: 'must not contain control characters' }]);
    expect(validate({ type: 'typed', text: 'fine' }, event).ok).toBe(true);
    expect(validate({ text: 'fine' }, event).ok).toBe(false);
  });

  it('safeInteger and epochMs refuse what JavaScript or a timestamp cannot hold', () => {
    expect(message(safeInteger(), 2 ** 53 + 1)).toBe('must be a whole number');
    expect(message(safeInteger(), 1e308)).toBe('must be a whole number');
    expect(message(safeInteger(1), 0)).toBe('must be a positive whole number');
    expect(message(safeInteger(), -(2 ** 53) + 1)).toBeUndefined();
    for (const bad of [1e308, -1e308, -1, 'NaN', 8.64e15 + 1]) expect(message(epochMs(), bad), String(bad)).toBeDefined();
    for (const good of [0, 1_714_550_400_000, 1.5, 8.64e15]) expect(message(epochMs(), good), String(good)).toBeUndefined();
    expect(message(int32(1), 2 ** 31)).toBe('must be at most 2147483647');
    expect(int32(1).schema).toEqual({ min: 1, max: 2147483647 });
    expect(safeText(20, { min: 1 }).schema).toEqual({ max: 20, min: 1 });
  });

  it('emailAddress wants an address of bounded length', () => {
    expect(message(emailAddress(), 'ann@example.com')).toBeUndefined();
    expect(message(emailAddress(), 'ann')).toBe('has the wrong format');
    expect(message(emailAddress(20), `${'a'.repeat(20)}@x.io`)).toBe('must be at most 20 characters');
  });
});
