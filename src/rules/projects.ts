import { Manifest } from '../core/manifest';

/** Whether a manifest is an Argo CD AppProject. */
export function isAppProject(m: Manifest): boolean {
  return m.kind === 'AppProject' && String(m.apiVersion).startsWith('argoproj.io/');
}

/** Whether a manifest is an Argo CD Application. */
export function isArgoApplication(m: Manifest): boolean {
  return m.kind === 'Application' && String(m.apiVersion).startsWith('argoproj.io/');
}
