import { encodePng } from './png.ts';
import { foldText, glyph, GLYPH_HEIGHT, GLYPH_WIDTH } from './pixel-font.ts';

/**
 * A page's social image (Open Graph / Twitter card, 1200x630 PNG): the brand, the section, the
 * page title in large pixel type and the page's address, on the site's dark theme. Drawn pixel by
 * pixel and encoded by png.ts at build time, so it needs no font file, browser or native library.
 */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

type Rgb = readonly [number, number, number];
const BG_FROM: Rgb = [13, 17, 23];
const BG_TO: Rgb = [28, 37, 65];
const BAND_FROM: Rgb = [59, 91, 219];
const BAND_TO: Rgb = [112, 72, 232];
const ACCENT: Rgb = [143, 168, 255];
const INK: Rgb = [230, 232, 235];
const MUTED: Rgb = [163, 172, 185];
const MARGIN = 80;

export interface CardText {
  title: string;
  /** e.g. "Docs", "Memory API reference". */
  section: string;
  /** Host and path shown at the foot, e.g. `engram.example/docs/quickstart`. */
  address: string;
}

class Canvas {
  readonly pixels = new Uint8Array(CARD_WIDTH * CARD_HEIGHT * 3);

  fill(x0: number, y0: number, w: number, h: number, color: (x: number, y: number) => Rgb): void {
    for (let y = Math.max(0, y0); y < Math.min(CARD_HEIGHT, y0 + h); y++) {
      for (let x = Math.max(0, x0); x < Math.min(CARD_WIDTH, x0 + w); x++) {
        const [r, g, b] = color(x, y);
        const at = (y * CARD_WIDTH + x) * 3;
        this.pixels[at] = r;
        this.pixels[at + 1] = g;
        this.pixels[at + 2] = b;
      }
    }
  }

  /** Draws `text` with its top-left at (x, y), each font pixel `scale` pixels square. */
  text(text: string, x: number, y: number, scale: number, color: Rgb): void {
    let left = x;
    for (const char of text) {
      glyph(char).forEach((row, gy) =>
        row.forEach((ink, gx) => {
          if (ink) this.fill(left + gx * scale, y + gy * scale, scale, scale, () => color);
        }),
      );
      left += (GLYPH_WIDTH + 1) * scale;
    }
  }
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round((a[i] ?? 0) + ((b[i] ?? 0) - (a[i] ?? 0)) * t)) as [
    number,
    number,
    number,
  ];
}

/** Greedy word wrap to `perLine` characters, at most `maxLines` lines (the last one cut with ...). */
export function wrap(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest.length > perLine) {
      if (line) lines.push(line);
      lines.push(rest.slice(0, perLine));
      rest = rest.slice(perLine);
      line = '';
    }
    const next = line ? `${line} ${rest}` : rest;
    if (next.length <= perLine) line = next;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1] ?? '';
  kept[maxLines - 1] = `${last.slice(0, perLine - 3).trimEnd()}...`;
  return kept;
}

/**
 * The background: a top-to-bottom gradient. Each row is one colour, so the PNG's Sub filter
 * turns it into zeros and deflate has nothing to search (a diagonal one took 250 ms a card).
 */
function background(pixels: Uint8Array): void {
  for (let y = 0; y < CARD_HEIGHT; y++) {
    const [r, g, b] = mix(BG_FROM, BG_TO, y / CARD_HEIGHT);
    for (let at = y * CARD_WIDTH * 3; at < (y + 1) * CARD_WIDTH * 3; at += 3) {
      pixels[at] = r;
      pixels[at + 1] = g;
      pixels[at + 2] = b;
    }
  }
}

export function socialCard(card: CardText): Buffer {
  const canvas = new Canvas();
  background(canvas.pixels);
  canvas.fill(0, 0, CARD_WIDTH, 14, (x) => mix(BAND_FROM, BAND_TO, x / CARD_WIDTH));
  canvas.text('ENGRAM', MARGIN, 70, 6, ACCENT);
  canvas.text(foldText(card.section), MARGIN, 150, 4, MUTED);
  // The largest type at which the title fits in three lines.
  const width = CARD_WIDTH - 2 * MARGIN;
  const title = foldText(card.title);
  const scale =
    [10, 8, 6].find(
      (s) => wrap(title, Math.floor(width / ((GLYPH_WIDTH + 1) * s)), 9).length <= 3,
    ) ?? 6;
  const lines = wrap(title, Math.floor(width / ((GLYPH_WIDTH + 1) * scale)), 3);
  lines.forEach((line, i) =>
    canvas.text(line, MARGIN, 220 + i * (GLYPH_HEIGHT + 3) * scale, scale, INK),
  );
  canvas.text(foldText(card.address), MARGIN, CARD_HEIGHT - 70, 3, MUTED);
  return encodePng(CARD_WIDTH, CARD_HEIGHT, canvas.pixels);
}
