/**
 * A small reader for the flat YAML frontmatter of SKILL.md files: `key: value`, quoted values,
 * and folded (`>`) or literal (`|`) blocks. Anything richer is ignored; the content collection
 * schema validates the same files in full.
 */
export function readFrontmatter(source: string): Record<string, string> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source);
  const out: Record<string, string> = {};
  if (!match?.[1]) return out;
  const lines = match[1].split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const kv = /^([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (!kv?.[1]) continue;
    const key = kv[1];
    const raw = (kv[2] ?? '').trim();
    if (/^[>|][+-]?$/.test(raw)) {
      const block: string[] = [];
      while (i + 1 < lines.length && /^(\s+|$)/.test(lines[i + 1] ?? '')) {
        i++;
        block.push((lines[i] ?? '').trim());
      }
      out[key] = raw.startsWith('>') ? block.filter(Boolean).join(' ') : block.join('\n').trim();
    } else {
      out[key] = unquote(raw);
    }
  }
  return out;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
    return value.slice(1, -1).replace(/''/g, "'");
  }
  return value;
}
