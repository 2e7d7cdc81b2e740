/** Reading Bot API parameters: a call's values come as JSON or form fields (numbers as strings, structures as JSON strings). */

/** A number given as a number or a numeric string. */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** A structured parameter, given as is or as a JSON string (undefined when that string is no JSON). */
export function structured<T>(v: unknown): T | undefined {
  if (typeof v !== 'string') return v as T | undefined;
  try {
    return JSON.parse(v) as T;
  } catch {
    return undefined;
  }
}
