import { parse } from 'yaml';
import { buildCheckoutApp } from '../../examples/checkout/app';
import { GitOpsApp } from '../../src';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';

// Apart from support.ts, so that rule tests that do not render the example load no constructs.

/** What the library really writes for examples/checkout: its Application and its workloads, parsed from YAML. */
export interface RenderedCheckout {
  readonly application: Manifest;
  readonly resources: Manifest[];
  readonly argoCdVersion: ArgoCdVersion;
}

/**
 * Renders examples/checkout with the constructs and parses the files it would write; `customize` may add to
 * the app before it is rendered.
 */
export function renderedCheckout(customize: (app: GitOpsApp) => void = () => undefined): RenderedCheckout {
  const gitops = buildCheckoutApp({ outdir: 'dist' });
  customize(gitops);
  const files = gitops.renderFiles();
  const application = files.find((f) => f.path === 'applications/payments/Application.checkout.k8s.yaml');
  if (!application) {
    throw new Error(`no applications/payments/Application.checkout.k8s.yaml among ${files.map((f) => f.path).join(', ')}`);
  }
  return {
    application: parse(application.content) as Manifest,
    resources: files.filter((f) => f.path.startsWith('workloads/checkout/')).map((f) => parse(f.content) as Manifest),
    argoCdVersion: ArgoCdVersion.LATEST,
  };
}
