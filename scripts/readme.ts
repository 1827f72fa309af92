/* Rewrites the README's marked blocks from their sources; the docs test fails when the README is stale. */
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { buildCheckoutApp } from '../examples/checkout/app';
import { simulateIncident } from '../examples/checkout/incident';
import { mistakesText } from '../examples/mistakes';
import {
  gitFleetOutput, helmValuesFromGitOutput, helmValuesOutput, kustomizeOptionsOutput, rolloutOutput, statefulSetOutput, syncWindowsOutput,
} from '../examples/snippets/outputs';
import { errorTable } from '../src/core/error-meanings';

async function main() {
  const readmePath = join(__dirname, '..', 'README.md');
  let readme = readFileSync(readmePath, 'utf8');
  const outputs = new Map(buildCheckoutApp({ outdir: 'dist' }).renderFiles().map((f) => [f.path, f.content]));
  const runs: Record<string, () => Promise<string>> = {
    'examples/checkout/incident.ts': simulateIncident,
    'examples/mistakes.ts': async () => mistakesText(),
    'examples/snippets/git-fleet.ts': async () => gitFleetOutput(),
    'examples/snippets/helm-values.ts': async () => helmValuesOutput(),
    'examples/snippets/helm-values-from-git.ts': async () => helmValuesFromGitOutput(),
    'examples/snippets/kustomize-options.ts': async () => kustomizeOptionsOutput(),
    'examples/snippets/rollout.ts': async () => rolloutOutput(),
    'examples/snippets/stateful-set.ts': async () => statefulSetOutput(),
    'examples/snippets/sync-windows.ts': async () => syncWindowsOutput(),
  };
  const replaceBlocks = async (kind: string, produce: (target: string) => Promise<string>) => {
    const pattern = new RegExp(`(<!-- ${kind}: (\\S+) -->\\n\`\`\`\\w*\\n)([\\s\\S]*?)(\`\`\`)`, 'g');
    const matches = [...readme.matchAll(pattern)];
    for (const m of matches.reverse()) {
      const body = await produce(m[2]);
      readme = readme.slice(0, m.index!) + m[1] + body + m[4] + readme.slice(m.index! + m[0].length);
    }
  };
  await replaceBlocks('example', async (t) => readFileSync(join(__dirname, '..', t), 'utf8').replace(/'\.\.\/\.\.\/src'/g, '\'cdk8s-safe-argocd\''));
  await replaceBlocks('output', async (t) => outputs.get(t) ?? `missing output ${t}\n`);
  await replaceBlocks('run', async (t) => runs[t]());
  // The tree `npm run example` writes: every file, as the synth names it.
  await replaceBlocks('tree', async (t) => [...outputs.keys()].map((f) => `${t}/${f}\n`).join(''));
  // The error table, between its two markers.
  readme = readme.replace(/(<!-- errors: generated[^\n]*-->\n)[\s\S]*?(<!-- errors: end -->)/, (_, begin, end) => `${begin}${errorTable()}${end}`);
  writeFileSync(readmePath, readme);
}

void main();
