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
