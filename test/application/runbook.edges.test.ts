import { AppOfApps, ArgoProject, RenderedFile } from '../../src';
import { newApp } from '../support/app';

const REPO = 'https://git.acme.internal/platform/gitops.git';

const NO_ROOT = 'No app-of-apps root of this tree deploys it. If another parent manages this Application, check that the parent ignores its '
  + '`/spec/syncPolicy/automated`, or the parent will revert the suspension within seconds (argo-cd #3895, #4808, #23484).';
const ROOT = 'Its app-of-apps root `payments-root` ignores this Application\'s `/spec/syncPolicy/automated`, so the root does not put it back.';
const RESTORE = '{"spec":{"syncPolicy":{"automated":{"allowEmpty":false,"enabled":true,"prune":true,"selfHeal":true},'
  + '"retry":{"backoff":{"duration":"5s","factor":2,"maxDuration":"3m"},"limit":5},'
  + '"syncOptions":["CreateNamespace=true","PruneLast=true","ApplyOutOfSyncOnly=true"]}}}';

/** The runbook of the default test app "checkout", every line, with `rootLine` for the root paragraph. */
function defaultRunbookLines(rootLine: string): string[] {
  return [
    '# Break-glass runbook: checkout',
    '',
    'Application `checkout` (namespace `argocd`, project `payments`) deploys `dist/workloads/checkout` of',
    '`https://git.acme.internal/platform/gitops.git` at `main` into namespace `payments`. It self-heals:',
    'any change made by hand is reverted within seconds. To change the cluster by hand during an incident,',
    'suspend automated sync of this one Application first, and restore it afterwards.',
    '',
    rootLine,
    '',
    '## 1. Suspend automated sync of this one Application',
    '',
    '```sh',
    'argocd app set checkout --app-namespace argocd --sync-policy none',
    '```',
    '',
    'or, without the argocd CLI:',
    '',
    '```sh',
    'kubectl -n argocd patch application checkout --type json -p \'[{"op":"remove","path":"/spec/syncPolicy/automated"}]\'',
    '```',
    '',
    '## 2. Act',
    '',
    'Make the change in namespace `payments` and confirm it helps. Note every command you run.',
    '',
    '## 3. Backfill Git',
    '',
    'Commit the same change to `https://git.acme.internal/platform/gitops.git` on `main` (regenerate the GitOps tree with the synth), and',
    'check that Git now matches the cluster:',
    '',
    '```sh',
    'argocd app diff checkout --app-namespace argocd',
    '```',
    '',
    'An empty diff means restoring automated sync will not undo your fix.',
    '',
    '## 4. Restore the full sync policy',
    '',
    'This sets every field the Application declares. Re-enabling automated sync alone can come back without',
    'prune or selfHeal (argo-cd #23330).',
    '',
    '```sh',
    `kubectl -n argocd patch application checkout --type merge -p '${RESTORE}'`,
    '```',
    '',
    '## 5. Verify',
    '',
    '```sh',
    'kubectl -n argocd get application checkout -o jsonpath=\'{.spec.syncPolicy}\'',
    '```',
    '',
  ];
}

function runbookOf(files: readonly RenderedFile[]): string {
  return files.find((f) => f.path === 'runbooks/checkout.md')!.content;
}

describe('the whole runbook, line by line', () => {
  test('of an app with defaults and no root', () => {
    // GIVEN the default app WHEN rendered THEN its runbook is exactly this
    const { gitops } = newApp();
    expect(runbookOf(gitops.renderFiles()).split('\n')).toEqual(defaultRunbookLines(NO_ROOT));
  });

  test('of a break-glassed app deployed by a root: the root is named and the suspension note ends it', () => {
    // GIVEN the app, suspended in Git, and a root of its project
    const { gitops } = newApp({ breakGlass: { reason: 'INC-42: ledger migration fixed by hand', expires: '2999-12-31', ticket: 'INC-42' } });
    new AppOfApps(gitops, 'root', { name: 'payments-root', project: ArgoProject.fromName('platform'), childProject: ArgoProject.fromName('payments'), repoUrl: REPO });
    // WHEN rendered THEN the runbook is the same, but for the root paragraph and the closing note
    expect(runbookOf(gitops.renderFiles()).split('\n')).toEqual([
      ...defaultRunbookLines(ROOT),
      '> This Application is suspended in Git right now: a recorded break-glass sets `argocd.argoproj.io/skip-reconcile`,',
      '> so Argo CD does not sync or self-heal it. Remove the `breakGlass` from its SafeApplication and commit to resume;',
      '> its sync policy was never changed. `safe-argocd audit` fails once the break-glass has expired.',
      '',
    ]);
  });
});
