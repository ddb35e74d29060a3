import { describeInvalid, parseSettings, type InvalidSetting, type Settings } from './settings.ts';

/**
 * The Worker's settings, parsed once per `env` object (workerd hands an isolate the same one).
 * A refused configuration is logged once, loudly, and then every request is refused with it:
 * Workers have no start-up hook, so "refuse at start" means refusing from the first request.
 */
const parsed = new WeakMap<
  object,
  { settings: Settings | null; invalid: InvalidSetting[] | null }
>();

export function workerSettings(env: Env): {
  settings: Settings | null;
  invalid: InvalidSetting[] | null;
} {
  const cached = parsed.get(env);
  if (cached !== undefined) return cached;
  const result = parseSettings(env);
  const entry = result.ok
    ? { settings: result.settings, invalid: null }
    : { settings: null, invalid: result.invalid };
  if (!result.ok)
    console.error(`refusing to serve: bad settings\n${describeInvalid(result.invalid)}`);
  parsed.set(env, entry);
  return entry;
}
