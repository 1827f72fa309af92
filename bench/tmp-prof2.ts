import { Session } from 'inspector';
import { writeFileSync } from 'fs';
import { ArgoCdVersion } from '../src/core/argocd-version';
import { auditFiles } from '../src/audit/audit';
import { pairingBomb } from '../test/support/bombs';
const tree = pairingBomb(16_000);
const files = Object.entries(tree).map(([path, text]) => ({ path, content: Buffer.from(text) }));
console.log('MiB', files.reduce((n, f) => n + f.content.length, 0) / 1048576);
auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST });
const s = new Session(); s.connect();
s.post('Profiler.enable', () => s.post('Profiler.start', () => {
  const t = Date.now();
  const r = auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST });
  console.log('audit ms', Date.now() - t, r.findings.length);
  s.post('Profiler.stop', (_e, { profile }) => { writeFileSync('/tmp/audit.cpuprofile', JSON.stringify(profile)); });
}));
