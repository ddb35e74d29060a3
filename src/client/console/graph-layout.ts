/**
 * A small force layout (Fruchterman-Reingold) for the entity graph: deterministic (nodes start on
 * a circle in insertion order), bounded (a fixed number of steps over at most a few hundred
 * nodes), and kept inside the drawing with a margin for labels.
 */
export interface Point {
  x: number;
  y: number;
}

export function layout(
  ids: readonly string[],
  edges: readonly { from: string; to: string }[],
  width: number,
  height: number,
  steps = 200,
): Map<string, Point> {
  const pos = new Map<string, Point>();
  const n = ids.length;
  const cx = width / 2;
  const cy = height / 2;
  ids.forEach((id, i) => {
    const angle = (2 * Math.PI * i) / Math.max(n, 1);
    pos.set(id, { x: cx + (width / 3) * Math.cos(angle), y: cy + (height / 3) * Math.sin(angle) });
  });
  if (n <= 1) {
    for (const p of pos.values()) Object.assign(p, { x: cx, y: cy });
    return pos;
  }
  const k = Math.sqrt((width * height) / n) * 0.6;
  // Labels are drawn to the right of a node: keep room for them on that side.
  const margin = { left: 30, right: 150, top: 30, bottom: 30 };
  for (let step = 0; step < steps; step++) {
    const temperature = (width / 10) * (1 - step / steps);
    const shift = new Map<string, Point>(ids.map((id) => [id, { x: 0, y: 0 }]));
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const a = pos.get(ids[i] ?? '');
        const b = pos.get(ids[j] ?? '');
        if (!a || !b) continue;
        const dx = a.x - b.x || 0.01;
        const dy = a.y - b.y || 0.01;
        const d = Math.hypot(dx, dy);
        const force = (k * k) / d;
        push(shift.get(ids[i] ?? ''), (dx / d) * force, (dy / d) * force);
        push(shift.get(ids[j] ?? ''), (-dx / d) * force, (-dy / d) * force);
      }
    }
    for (const e of edges) {
      const a = pos.get(e.from);
      const b = pos.get(e.to);
      if (!a || !b) continue;
      const dx = a.x - b.x;
      const dy = a.y - b.y;
      const d = Math.hypot(dx, dy) || 0.01;
      const force = (d * d) / k;
      push(shift.get(e.from), (-dx / d) * force, (-dy / d) * force);
      push(shift.get(e.to), (dx / d) * force, (dy / d) * force);
    }
    for (const id of ids) {
      const p = pos.get(id);
      const s = shift.get(id);
      if (!p || !s) continue;
      // Gravity toward the centre, so nodes without edges gather instead of lining the border.
      const d = Math.hypot(p.x - cx, p.y - cy);
      if (d > 0)
        push(s, ((cx - p.x) / d) * ((d * d) / k) * 0.5, ((cy - p.y) / d) * ((d * d) / k) * 0.5);
      const len = Math.hypot(s.x, s.y) || 1;
      p.x = clamp(
        p.x + (s.x / len) * Math.min(len, temperature),
        margin.left,
        width - margin.right,
      );
      p.y = clamp(
        p.y + (s.y / len) * Math.min(len, temperature),
        margin.top,
        height - margin.bottom,
      );
    }
  }
  return pos;
}

function push(p: Point | undefined, x: number, y: number): void {
  if (!p) return;
  p.x += x;
  p.y += y;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
