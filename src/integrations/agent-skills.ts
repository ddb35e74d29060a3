import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { readFrontmatter } from './frontmatter.ts';

/** One published skill and the exact bytes served for it. */
export interface PublishedSkill {
  name: string;
  description: string;
  /** URL path of the served copy. */
  path: string;
  bytes: Uint8Array;
  digest: string;
}

export const SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/** Reads content/skills/<name>/SKILL.md; the frontmatter name must equal the folder. */
export async function readSkills(contentRoot: string): Promise<PublishedSkill[]> {
  const dir = `${contentRoot}/skills`;
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
  const skills: PublishedSkill[] = [];
  for (const name of names.sort()) {
    const file = `${dir}/${name}/SKILL.md`;
    let bytes: Uint8Array;
    try {
      bytes = await readFile(file);
    } catch {
      continue;
    }
    const fm = readFrontmatter(new TextDecoder().decode(bytes));
    if (fm.name !== name) {
      throw new Error(
        `${file}: frontmatter name "${fm.name ?? ''}" must equal its folder "${name}"`,
      );
    }
    if (!fm.description) throw new Error(`${file}: frontmatter description is required`);
    skills.push({
      name,
      description: fm.description,
      path: `/.well-known/agent-skills/${name}/SKILL.md`,
      bytes,
      digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    });
  }
  return skills;
}

export function skillsIndex(
  origin: string,
  skills: readonly PublishedSkill[],
): Record<string, unknown> {
  return {
    $schema: SKILLS_SCHEMA,
    skills: skills.map((s) => ({
      name: s.name,
      type: 'skill-md',
      description: s.description,
      url: `${origin}${s.path}`,
      digest: s.digest,
    })),
  };
}
