import { manualSyncBlocked, SyncWindowFacts } from '../core/sync-windows';

/** What a break-glass runbook needs to know about one Application. */
export interface RunbookFacts {
  readonly name: string;
  readonly applicationNamespace: string;
  readonly project: string;
  readonly repoUrl: string;
  readonly path?: string;
  readonly targetRevision: string;
  /** The Git repositories the app reads Helm value files from (`spec.sources` after the chart), if any. */
  readonly refSources?: readonly { readonly ref: string; readonly repoUrl: string; readonly targetRevision: string }[];
  readonly destinationNamespace: string;
  /** The full sync policy the app declares, as Argo CD's JSON. */
  readonly syncPolicy: Record<string, unknown>;
  /** The app-of-apps root that deploys the app, if any. */
  readonly root?: string;
  /** Whether the app is suspended in Git right now. */
  readonly declarativeBreakGlass: boolean;
  /** The sync windows of the app's project that apply to it, when the project is a SafeProject of the tree. */
  readonly syncWindows?: readonly SyncWindowFacts[];
  /** Why the project lets some of them block manual syncs (its reasoned suppression of SA208), if it does. */
  readonly manualSyncBlockedReason?: string;
}

/**
 * The break-glass runbook of one Application, in Markdown: suspend this one app, act, backfill Git,
 * restore the whole declared policy. Every command is complete and can be pasted as it is.
 */
export function renderRunbook(f: RunbookFacts): string {
  const ns = f.applicationNamespace;
  const restore = JSON.stringify({ spec: { syncPolicy: f.syncPolicy } });
  const lines = [
    `# Break-glass runbook: ${f.name}`,
    '',
    `Application \`${f.name}\` (namespace \`${ns}\`, project \`${f.project}\`) deploys \`${f.path ?? '(chart)'}\` of`,
    `\`${f.repoUrl}\` at \`${f.targetRevision}\` into namespace \`${f.destinationNamespace}\`. It self-heals:`,
    'any change made by hand is reverted within seconds. To change the cluster by hand during an incident,',
    'suspend automated sync of this one Application first, and restore it afterwards.',
    '',
    ...refSourceLines(f),
    f.root
      ? `Its app-of-apps root \`${f.root}\` ignores this Application's \`/spec/syncPolicy/automated\`, so the root does not put it back.`
      : 'No app-of-apps root of this tree deploys it. If another parent manages this Application, check that the parent ignores its `/spec/syncPolicy/automated`, or the parent will revert the suspension within seconds (argo-cd #3895, #4808, #23484).',
    '',
    '## 1. Suspend automated sync of this one Application',
    '',
    '```sh',
    `argocd app set ${f.name} --app-namespace ${ns} --sync-policy none`,
    '```',
    '',
    'or, without the argocd CLI:',
    '',
    '```sh',
    `kubectl -n ${ns} patch application ${f.name} --type json -p '[{"op":"remove","path":"/spec/syncPolicy/automated"}]'`,
    '```',
    '',
    '## 2. Act',
    '',
    `Make the change in namespace \`${f.destinationNamespace}\` and confirm it helps. Note every command you run.`,
    '',
    '## 3. Backfill Git',
    '',
    ...(f.refSources?.length
      ? [`Commit the same change where it is declared: a Helm value to its value file in ${f.refSources.map((r) => `\`${r.repoUrl}\` on \`${r.targetRevision}\``).join(' or ')},`,
        'anything else to the synth that renders this Application (regenerate the GitOps tree), and']
      : [`Commit the same change to \`${f.repoUrl}\` on \`${f.targetRevision}\` (regenerate the GitOps tree with the synth), and`]),
    'check that Git now matches the cluster:',
    '',
    '```sh',
    `argocd app diff ${f.name} --app-namespace ${ns}`,
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
    `kubectl -n ${ns} patch application ${f.name} --type merge -p '${restore}'`,
    '```',
    '',
    '## 5. Verify',
    '',
    '```sh',
    `kubectl -n ${ns} get application ${f.name} -o jsonpath='{.spec.syncPolicy}'`,
    '```',
    '',
  ];
  lines.push(...syncWindowSection(f));
  if (f.declarativeBreakGlass) {
    lines.push(
      '> This Application is suspended in Git right now: a recorded break-glass sets `argocd.argoproj.io/skip-reconcile`,',
      '> so Argo CD does not sync or self-heal it. Remove the `breakGlass` from its SafeApplication and commit to resume;',
      '> its sync policy was never changed. `safe-argocd audit` fails once the break-glass has expired.',
      '',
    );
  }
  return lines.join('\n');
}

/** The repositories a multi-source Application reads value files from: a fix by hand is backfilled there. */
function refSourceLines(f: RunbookFacts): string[] {
  if (!f.refSources?.length) {
    return [];
  }
  return [
    `It reads Helm value files from ${f.refSources.map((r) => `\`${r.repoUrl}\` at \`${r.targetRevision}\` (\`$${r.ref}\`)`).join(', ')}.`,
    'It has `spec.sources`: `argocd app rollback` returns every source to the revisions of that deployment (argo-cd #14124).',
    '',
  ];
}

/** What the project's sync windows mean for the steps above: when the backfilled fix can be synced. */
function syncWindowSection(f: RunbookFacts): string[] {
  const windows = f.syncWindows ?? [];
  if (windows.length === 0) {
    return [];
  }
  const lines = [
    '## Sync windows',
    '',
    `Project \`${f.project}\` has sync windows that apply to this Application (\`argocd proj windows list ${f.project}\`):`,
    '',
    ...windows.map((w) => `- ${w.index}: ${w.kind} \`${w.schedule}\` for ${w.duration} (${w.timeZone}), manual syncs ${w.manualSync ? 'allowed' : '**blocked**'}`),
    '',
    'While a window stops syncs, restoring automated sync (step 4) does not apply the backfilled fix: sync it by hand',
    'once Git matches the cluster:',
    '',
    '```sh',
    `argocd app sync ${f.name} --app-namespace ${f.applicationNamespace}`,
    '```',
    '',
  ];
  const blocking = windows.filter((w) => manualSyncBlocked(w) !== undefined);
  if (blocking.length > 0) {
    const deployer = f.root ? `its app-of-apps root \`${f.root}\`` : 'the Application that deploys the AppProject';
    lines.push(
      ...blocking.map((w) => `> Window ${w.index}: ${manualSyncBlocked(w)}.`),
      ...(f.manualSyncBlockedReason ? [`> The project records why: ${f.manualSyncBlockedReason}`] : []),
      '> If the fix cannot wait, let manual syncs through in Git: remove `manualSync: false` from the window in the',
      `> SafeProject, synthesize, commit, and sync ${deployer}. Changing the AppProject by hand instead`,
      `> (${blocking.map((w) => `\`argocd proj windows enable-manual-sync ${f.project} ${w.index}\``).join(', ')}) works at once, but the`,
      '> self-heal of whatever deploys the AppProject from Git puts the window back.',
      '',
    );
  }
  return lines;
}

/** What the runbook of an ApplicationSet needs to know. */
export interface ApplicationSetRunbookFacts {
  readonly name: string;
  readonly applicationNamespace: string;
  /** `spec.syncPolicy.applicationsSync` as rendered. */
  readonly applicationsSync: string;
  /** Whether the set syncs its Applications by a RollingSync strategy. */
  readonly rollingSync: boolean;
  /** Whether deleting a generated Application deletes what it deployed (the resources finalizer in the template). */
  readonly cascades: boolean;
  /** The full sync policy of every generated Application, as Argo CD's JSON. */
  readonly syncPolicy: Record<string, unknown>;
}

/**
 * The operations runbook of one ApplicationSet, in Markdown: the controller settings its policy needs, how to check
 * them, and break-glass on one generated Application.
 */
export function renderApplicationSetRunbook(f: ApplicationSetRunbookFacts): string {
  const ns = f.applicationNamespace;
  const app = '<application>';
  const restore = JSON.stringify({ spec: { syncPolicy: f.syncPolicy } });
  const lines = [
    `# Runbook: ApplicationSet ${f.name}`,
    '',
    `ApplicationSet \`${f.name}\` (namespace \`${ns}\`) generates Applications in \`${ns}\`. \`${app}\` below is the name of`,
    'one of them; these are the Applications it owns:',
    '',
    '```sh',
    `kubectl -n ${ns} get applications -o jsonpath='{range .items[?(@.metadata.ownerReferences[0].name=="${f.name}")]}{.metadata.name}{"\\n"}{end}'`,
    '```',
    '',
    '## Controller settings this ApplicationSet relies on',
    '',
    `It sets \`applicationsSync: ${f.applicationsSync}\`, so that an Application whose folder, file, element or cluster stops`,
    'being generated is not deleted by the ApplicationSet controller. The controller honours that only when',
    '`applicationsetcontroller.policy` in `argocd-cmd-params-cm` is empty (its policy is then `sync`, which deletes), or',
    'when `applicationsetcontroller.enable.policy.override` is `"true"`. Otherwise its own policy applies to every',
    'ApplicationSet. Check both:',
    '',
    '```sh',
    'kubectl -n argocd get configmap argocd-cmd-params-cm -o jsonpath=\'{.data.applicationsetcontroller\\.policy}{"|"}{.data.applicationsetcontroller\\.enable\\.policy\\.override}{"\\n"}\'',
    '```',
    '',
    '`|` alone, or `<policy>|true`, is what this ApplicationSet needs.',
  ];
  if (f.rollingSync) {
    lines.push(
      '',
      'It also rolls its Applications out step by step (RollingSync), which the controller does only with',
      '`applicationsetcontroller.enable.progressive.syncs: "true"` in the same ConfigMap; without it every Application',
      'auto-syncs at once.',
      '',
      '```sh',
      'kubectl -n argocd get configmap argocd-cmd-params-cm -o jsonpath=\'{.data.applicationsetcontroller\\.enable\\.progressive\\.syncs}{"\\n"}\'',
      '```',
    );
  }
  lines.push(
    '',
    'The ConfigMap is read when the controller starts: after changing it, restart it',
    '(`kubectl -n argocd rollout restart deployment argocd-applicationset-controller`).',
    '',
    '## An Application that is no longer generated',
    '',
    'Its folder (or file, element, cluster) is gone from Git, but the Application stays, and keeps its resources, until',
    'someone deletes it on purpose. Check that its source path is really gone, then:',
    '',
    '```sh',
    `kubectl -n ${ns} delete application ${app}`,
    '```',
    '',
    f.cascades
      ? 'The template carries the resources finalizer: this deletes everything the Application deployed too.'
      : 'The template carries no resources finalizer: the deployed resources keep running, unmanaged; delete them on purpose.',
    '',
    '## Break-glass on one generated Application',
    '',
  );
  if (f.rollingSync) {
    lines.push(
      'Under RollingSync the controller has already turned auto-sync off in every generated Application and syncs them',
      'itself, step by step, when Git changes: a change made by hand stays until the next Git change reaches that',
      'Application\'s step. Do not turn auto-sync on by hand. Act, then commit the same change to Git; to apply it at',
      'once rather than with the next rollout:',
      '',
      '```sh',
      `argocd app sync ${app} --app-namespace ${ns}`,
      '```',
      '',
    );
    return lines.join('\n');
  }
  lines.push(
    'The ApplicationSet ignores each Application\'s `/spec/syncPolicy/automated`, so auto-sync of one of them can be',
    'turned off by hand and the controller does not turn it back on:',
    '',
    '```sh',
    `argocd app set ${app} --app-namespace ${ns} --sync-policy none`,
    '```',
    '',
    'Act, commit the same change to Git, check that `argocd app diff` is empty, then restore the whole policy (re-enabling',
    'auto-sync alone can come back without prune or selfHeal, argo-cd #23330, and the controller does not repair it):',
    '',
    '```sh',
    `kubectl -n ${ns} patch application ${app} --type merge -p '${restore}'`,
    '```',
    '',
  );
  return lines.join('\n');
}
