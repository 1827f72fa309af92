import { readFileSync } from 'fs';
import { join } from 'path';
import { buildCheckoutApp } from '../../examples/checkout/app';
import { simulateIncident } from '../../examples/checkout/incident';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The fenced block that follows each `<!-- kind: target -->` marker. */
function markedBlocks(kind: string): { target: string; body: string }[] {
  const found: { target: string; body: string }[] = [];
  const pattern = new RegExp(`<!-- ${kind}: (\\S+) -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``, 'g');
  for (const m of README.matchAll(pattern)) {
    found.push({ target: m[1], body: m[2] });
  }
  return found;
}

describe('README', () => {
  test('its first lines give the example and test commands', () => {
    const head = README.split('\n').slice(0, 6).join('\n');
    expect(head).toContain('npm ci && npm run example');
    expect(head).toContain('npm ci && npm test');
  });

  test('every example code block is the example file, as a user imports it', () => {
    const blocks = markedBlocks('example');
    expect(blocks.length).toBeGreaterThan(0);
    for (const { target, body } of blocks) {
      const source = readFileSync(join(ROOT, target), 'utf8').replace(/'\.\.\/\.\.\/src'/g, '\'cdk8s-safe-argocd\'');
      expect(body).toBe(source); // run `npx projen readme` to refresh
    }
  });

  test('every output block is what the example synthesizes', () => {
    const files = new Map(buildCheckoutApp({ outdir: 'dist' }).renderFiles().map((f) => [f.path, f.content]));
    const blocks = markedBlocks('output');
    expect(blocks.length).toBeGreaterThan(0);
    for (const { target, body } of blocks) {
      expect(body).toBe(files.get(target));
    }
  });

  test('the incident simulation block is what examples/checkout/incident.ts prints', async () => {
    const blocks = markedBlocks('run');
    expect(blocks.map((b) => b.target)).toEqual(['examples/checkout/incident.ts']);
    expect(blocks[0].body).toBe(await simulateIncident());
  });
});
