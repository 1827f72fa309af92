import { ArgoCdFeature, hasFeature, Release } from './argocd-features';
import { closestIgnoringCase } from './text';

/**
 * The sync options an Application's `spec.syncPolicy.syncOptions` can hold, as Argo CD reads them: each is matched
 * as the exact string `Name=value` (SyncOptions.HasOption and GetOptionValue in pkg/apis/application/v1alpha1/types.go,
 * the constants of gitops-engine/pkg/sync/common/types.go, controller/sync.go), so case and spaces matter.
 */
interface KnownOption {
  readonly name: string;
  /** The values Argo CD reads (`true`/`false` where `false` is the default and changes nothing). */
  readonly values: readonly string[];
  /** The feature that makes an Application read it, when not every supported release does. */
  readonly feature?: ArgoCdFeature;
  /** What the option does on a release without the feature. */
  readonly before?: string;
}

const TRUE_FALSE = ['true', 'false'];

const APPLICATION_OPTIONS: readonly KnownOption[] = [
  { name: 'Validate', values: TRUE_FALSE },
  { name: 'SkipDryRunOnMissingResource', values: TRUE_FALSE },
  { name: 'PruneLast', values: TRUE_FALSE },
  { name: 'Replace', values: TRUE_FALSE },
  { name: 'ServerSideApply', values: TRUE_FALSE },
  { name: 'ApplyOutOfSyncOnly', values: TRUE_FALSE },
  { name: 'CreateNamespace', values: TRUE_FALSE },
  { name: 'RespectIgnoreDifferences', values: TRUE_FALSE },
  { name: 'FailOnSharedResource', values: TRUE_FALSE },
  { name: 'PrunePropagationPolicy', values: ['foreground', 'background', 'orphan'] },
  {
    name: 'ClientSideApplyMigration',
    values: TRUE_FALSE,
    feature: 'clientSideApplyMigrationOption',
    before: 'exists from Argo CD 3.1',
  },
  {
    name: 'Prune',
    values: ['false', 'confirm'],
    feature: 'applicationPruneDeleteOptions',
    before: 'is read from an Application\'s sync options from Argo CD 3.4 (argo-cd #23370); before, only from a resource\'s '
      + 'argocd.argoproj.io/sync-options annotation',
  },
  {
    name: 'Delete',
    values: ['false', 'confirm'],
    feature: 'applicationPruneDeleteOptions',
    before: 'is read from an Application\'s sync options from Argo CD 3.4 (argo-cd #23370); before, only from a resource\'s '
      + 'argocd.argoproj.io/sync-options annotation',
  },
];

/** Options people write into an Application's sync options that Argo CD reads elsewhere, or under another spelling. */
const MISPLACED: { readonly [option: string]: string } = {
  'Force=true': 'is read only from a resource\'s argocd.argoproj.io/sync-options annotation (with Replace=true), never from the Application',
  'DisableClientSideApplyMigration=true': 'is what the docs said until argo-cd #25288, but nothing reads it; the option is ClientSideApplyMigration=false',
  'ServerSideDiff=true': 'is a compare option: set it in the argocd.argoproj.io/compare-options annotation of the Application',
  'ServerSideDiff=false': 'is a compare option: set it in the argocd.argoproj.io/compare-options annotation of the Application',
  'IncludeMutationWebhook=true': 'is a compare option: set it in the argocd.argoproj.io/compare-options annotation of the Application',
};

/** Options are short; anything longer is not compared letter by letter (input is data, sizes are bounded). */
const MAX_COMPARED_LENGTH = 80;

/** Why Argo CD does not read `option` from an Application on `release`, and the option meant, or undefined when it reads it. */
export function syncOptionProblem(option: string, release: Release): { problem: string; suggestion?: string } | undefined {
  if (Object.hasOwn(MISPLACED, option)) {
    return {
      problem: `${JSON.stringify(option)} ${MISPLACED[option]}`,
      ...(option === 'DisableClientSideApplyMigration=true' ? { suggestion: 'ClientSideApplyMigration=false' } : {}),
    };
  }
  const eq = option.indexOf('=');
  const name = eq < 0 ? option : option.slice(0, eq);
  const value = eq < 0 ? undefined : option.slice(eq + 1);
  const known = APPLICATION_OPTIONS.find((o) => o.name === name);
  if (known && value !== undefined && known.values.includes(value)) {
    if (known.feature && !hasFeature(release, known.feature)) {
      return { problem: `${JSON.stringify(option)} ${known.before}, so Argo CD ${release.major}.${release.minor} ignores it` };
    }
    return undefined;
  }
  const suggestion = closestOption(option);
  const sameName = APPLICATION_OPTIONS.find((o) => o.name.toLowerCase() === name.trim().toLowerCase());
  const takes = sameName ? `; ${sameName.name} takes ${sameName.values.map((v) => `=${v}`).join(' or ')}` : '';
  return {
    problem: `Argo CD reads no sync option ${JSON.stringify(option)} (options are matched exactly, case and spaces included)${takes}`,
    ...(suggestion !== undefined && suggestion !== option ? { suggestion } : {}),
  };
}

/** The known `Name=value` closest to `option`: the same name and value but for case and spaces, else one a few letters away. */
function closestOption(option: string): string | undefined {
  if (option.length > MAX_COMPARED_LENGTH) {
    return undefined;
  }
  const wanted = option.replace(/\s/g, '').toLowerCase();
  const candidates = APPLICATION_OPTIONS.flatMap((o) => o.values.map((v) => `${o.name}=${v}`));
  return closestIgnoringCase(wanted, candidates, Math.max(2, Math.floor(wanted.length / 5)) + 1);
}

