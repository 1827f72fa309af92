import { stringAt } from './manifest';
import { Manifest } from './types';

/** Annotations of a declarative break-glass, written by SafeApplication and read by the rules. */
export const BREAK_GLASS_REASON_ANNOTATION = 'safe-argocd/break-glass-reason';
export const BREAK_GLASS_EXPIRES_ANNOTATION = 'safe-argocd/break-glass-expires';
export const BREAK_GLASS_TICKET_ANNOTATION = 'safe-argocd/break-glass-ticket';

/** The recorded break-glass of an Application, if it has one. */
export function breakGlassOf(application: Manifest): { reason: string; expires?: string } | undefined {
  const reason = stringAt(application, 'metadata', 'annotations', BREAK_GLASS_REASON_ANNOTATION);
  return reason === undefined ? undefined : { reason, expires: stringAt(application, 'metadata', 'annotations', BREAK_GLASS_EXPIRES_ANNOTATION) };
}
