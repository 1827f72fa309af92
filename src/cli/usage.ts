/** The commands of `safe-argocd`, in the order the overview lists them. */
export const COMMANDS = ['audit', 'simulate', 'new'] as const;
export type Command = typeof COMMANDS[number];

/** Options every command accepts, listed at the end of each command's usage. */
const GLOBAL_OPTIONS = `  --debug                print the stack trace of an unexpected error (also: SAFE_ARGOCD_DEBUG=1)
  -h, --help             print this help and exit 0`;

/** The short overview: what each command is for, and where to read more. */
export const OVERVIEW = `usage: safe-argocd <command> [options]

commands:
  audit [paths...]                        check YAML and JSON manifests against the rules of RULES.md
  simulate --app <file> --desired <path>  predict Argo CD's diff and self-heal for a resource or an app
  new <service>                           write a cdk8s app for one service

options:
${GLOBAL_OPTIONS}

safe-argocd help <command> (or safe-argocd <command> --help) prints a command's options and exit codes.
`;

const AUDIT = `usage: safe-argocd audit [paths...] [options]

Runs the rules of RULES.md over YAML and JSON files and folders (default: the current folder).

options:
  --format <format>      text (default; coloured on a terminal), json, sarif or markdown
  --output <file>        write the report to <file> instead of stdout (never coloured); - is stdout
  --fail-on <severity>   the lowest severity that fails the run: error, warning (default) or note
  --rule <id>            only these rules (repeatable, or comma-separated), e.g. SA001
  --severity <severity>  only report findings at or above error, warning or note
  --argocd-version X.Y   the Argo CD release for the version-dependent rules (default: newest supported)
  --repo-root <dir>      where source.path starts (default: the folder holding .git)
  --repo-url <url>       the URL Argo CD reads this repository by (repeatable): only sources of it are paired with
                         the files (default: the Git remote origin, else the repoURLs whose source paths are here)
  --rendered <app>=<file>  what Argo CD renders for an Application (kustomize build, helm template, argocd app
                         manifests; - for standard input), audited instead of its source path (repeatable)
  --config <file>        project-wide settings (default: .safe-argocd.yaml at the repository root)
  --max-file-size <MB>   larger files are reported and skipped, read no further than 64 KiB (default 5)
  --max-objects-per-file <n>  a file of more Kubernetes objects is reported and skipped (default 5000; the largest
                         of 12,000 files in 37 public GitOps repositories holds 38)
  --exclude <glob>       leave out files and folders, unread (repeatable), e.g. 'dashboards/**' or '**/*.json'
  --baseline <file>      findings this baseline holds are known: listed apart, never failing the run
  --write-baseline <file>  write every finding of this run to <file> as the baseline (then nothing is new), a
                         file other than --output's; a run narrowed by --rule, --severity or a path keeps the
                         --baseline entries outside it
  --fail-on-unreadable   a file that cannot be read or parsed fails the run (default: reported only)
  --verbose              list what is otherwise one line: what was not audited, and the baselined findings
${GLOBAL_OPTIONS}

exit codes:
  0  no finding at or above --fail-on that the baseline does not hold
  1  findings at or above --fail-on that the baseline does not hold
  2  a usage error, an unreadable config or baseline, a given path that does not exist, a --rendered file that
     cannot be read, holds no Kubernetes object or that no Application takes, an unreadable file with
     --fail-on-unreadable, or an unexpected error
`;

const SIMULATE = `usage: safe-argocd simulate --app <application.yaml> --desired <file|folder> [--live <file|folder|->] [options]

Predicts, offline, Argo CD's diff and self-heal for one resource, or for a whole Application.

With one object in --desired and at most one in --live, it reports on that resource. With a folder, a file of
several objects (a List counts as its items), or - (standard input, e.g. kubectl get deploy,svc -n payments -o yaml),
it pairs Git's objects with the cluster's by group, kind, namespace and name and prints one verdict per resource:
Synced, OutOfSync with its fields, missing (the sync creates it), left over and tracked by the Application (a sync
with pruning deletes it), hooks not compared; then the Application's.

options:
  --app <file>           the Argo CD Application (argoproj.io/v1alpha1) that deploys the resources
  --desired <path>       the resources as Git has them: a file or a folder of YAML and JSON files
  --live <path>          the resources as the cluster has them: a file, a folder, or - for standard input
                         (default: none exists yet)
  --format <format>      text (default) or json
  --max-file-size <MB>   larger files are refused without being read (default 5)
${GLOBAL_OPTIONS}

exit codes:
  0  Synced
  1  OutOfSync
  2  a usage error, an unreadable input (nothing is reported then), two objects of one side with the same group,
     kind, namespace and name, inputs in the wrong places (e.g. --app and --desired swapped), or an unexpected error
`;

const NEW = `usage: safe-argocd new <service> [--project <name>] [--hpa MIN:MAX] [--migration] [--external-secret KEY] [--dir <dir>]
                  [--image <ref>] [--repo-url <url>] [--library <version-or-tarball>]

Adds a service to the cdk8s app of this library that --dir (default: the current folder) lies in, or else to the
one app of this library in the Git repository: one new file, services/<service>.ts, listed in services/index.ts.
Where there is no such app, writes a new one into --dir (default ./<service>): main.ts, main.test.ts, services/,
package.json, cdk8s.yaml, tsconfig.json, README.md, .gitignore. Nothing is overwritten.

options:
  --project <name>       the team's AppProject, shared by its services (default: the service)
  --hpa MIN:MAX          an HPA owns the replicas, between MIN and MAX
  --migration            add a PreSync migration Job
  --external-secret KEY  read KEY from the secret store into the environment variable KEY
  --image <ref>          the image to deploy (default: a registry.example.com placeholder)
  --dir <dir>            the app to add to, or where to write a new one (default: as above)
  --repo-url <url>       a new app: the repository Argo CD reads (default: the Git remote origin, else a placeholder)
  --library <spec>       a new app: the version range of this library, or the path of a packed tarball, which must
                         exist (default: ^this version)
${GLOBAL_OPTIONS}

exit codes:
  0  written
  2  a usage error, a file that exists already, a second app in a repository that has one (nothing is
     written), or an unexpected error
`;

const USAGES: Record<Command, string> = { audit: AUDIT, simulate: SIMULATE, new: NEW };

/** Whether `name` is a command of `safe-argocd`. */
export function isCommand(name: string): name is Command {
  return (COMMANDS as readonly string[]).includes(name);
}

/** The usage of one command: its options, each with one line, and its exit codes. */
export function usageOf(command: Command): string {
  return USAGES[command];
}
