import { learnDepth, stripIndex } from './content-routes.ts';

/** The fields of a learn entry the course order needs. */
export interface CourseEntry {
  id: string;
  data: { title: string; order: number };
}

/**
 * A course in reading order: each module, then its lessons, module by module, each level in
 * `order` then id. Lessons get previous/next links across module boundaries from this.
 */
export function courseSequence<T extends CourseEntry>(all: readonly T[], courseId: string): T[] {
  const course = stripIndex(courseId).split('/')[0] ?? '';
  const byOrder = (a: T, b: T) => a.data.order - b.data.order || a.id.localeCompare(b.id);
  const under = (prefix: string, depth: number) =>
    all
      .filter((e) => learnDepth(e.id) === depth && stripIndex(e.id).startsWith(`${prefix}/`))
      .sort(byOrder);
  return under(course, 2).flatMap((module) => [module, ...under(stripIndex(module.id), 3)]);
}

export interface CoursePosition<T> {
  prev?: T;
  next?: T;
  /** 1-based place of the entry in its course, and the course's length. */
  index: number;
  total: number;
}

/** Where an entry of depth 2 or 3 sits in its course; undefined for courses themselves. */
export function coursePosition<T extends CourseEntry>(
  all: readonly T[],
  id: string,
): CoursePosition<T> | undefined {
  if (learnDepth(id) < 2) return undefined;
  const sequence = courseSequence(all, id);
  const at = sequence.findIndex((e) => e.id === id);
  if (at === -1) return undefined;
  return { prev: sequence[at - 1], next: sequence[at + 1], index: at + 1, total: sequence.length };
}
