import { closeSync, openSync, writeFileSync, writeSync } from 'fs';
import { join } from 'path';
import { buildCheckoutApp } from '../../examples/checkout/app';

/** `levels` nested block mappings indented by one space each: the smallest file with that block depth. */
export function writeDeepBlock(path: string, levels: number): void {
  const fd = openSync(path, 'w');
  try {
    for (let i = 0; i < levels; i++) {
      writeSync(fd, `${' '.repeat(i)}a:\n`);
    }
    writeSync(fd, `${' '.repeat(levels)}end\n`);
  } finally {
    closeSync(fd);
  }
}

/** Nine levels of nine aliases: a ConfigMap whose `data.lol` would expand to 9^9 strings. */
export const BILLION_LAUGHS = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata: {name: lol}',
  'data: {lol: *i}',
  '',
].join('\n');

/** Writes the checkout example's Application and web Deployment into `dir`, as simulate's --app and --desired. */
export function writeCheckoutInputs(dir: string): { app: string; desired: string } {
  const files = new Map(buildCheckoutApp({ outdir: 'dist' }).renderFiles().map((f) => [f.path, f.content]));
  const app = join(dir, 'app.yaml');
  const desired = join(dir, 'deploy.yaml');
  writeFileSync(app, files.get('applications/payments/Application.checkout.k8s.yaml')!);
  writeFileSync(desired, files.get('workloads/checkout/Deployment.checkout-web.k8s.yaml')!);
  return { app, desired };
}
