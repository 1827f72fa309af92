import { BREAK_GLASS_EXPIRES_ANNOTATION, BREAK_GLASS_REASON_ANNOTATION } from './annotations';
import { Manifest, stringAt } from './manifest';

/** Whether a `YYYY-MM-DD` string names a day that exists. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    return false;
  }
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The recorded break-glass of an Application, if it has one. */
export function breakGlassOf(application: Manifest): { reason: string; expires?: string } | undefined {
  const reason = stringAt(application, 'metadata', 'annotations', BREAK_GLASS_REASON_ANNOTATION);
  return reason === undefined ? undefined : { reason, expires: stringAt(application, 'metadata', 'annotations', BREAK_GLASS_EXPIRES_ANNOTATION) };
}
