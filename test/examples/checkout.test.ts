import { join } from 'path';
import { buildCheckoutApp } from '../../examples/checkout/app';
import { readTree, tempDir, yamlOf } from '../support/app';
import { crdErrors } from '../support/crd';

describe('examples/checkout', () => {
  // GIVEN the bundled example, written where `npm run example` writes it, relative to the repository root
  const dir = tempDir();
  buildCheckoutApp({ outdir: join(dir, 'dist'), outdirFromRepoRoot: 'dist' }).synth();
  const tree = readTree(join(dir, 'dist'));

  test('synthesizes the checkout Application and its workloads', () => {
    expect(Object.keys(tree)).toEqual([
      'applications/payments/AppProject.payments.k8s.yaml',
      'applications/payments/Application.checkout.k8s.yaml',
      'applications/platform/AppProject.platform.k8s.yaml',
      'roots/Application.payments-apps.k8s.yaml',
      'runbooks/checkout.md',
      'workloads/checkout/Deployment.checkout-web.k8s.yaml',
      'workloads/checkout/ExternalSecret.checkout-db.k8s.yaml',
      'workloads/checkout/HorizontalPodAutoscaler.checkout-web.k8s.yaml',
      'workloads/checkout/Job.checkout-migrate.k8s.yaml',
      'workloads/checkout/Role.checkout-humans.k8s.yaml',
      'workloads/checkout/RoleBinding.checkout-humans.k8s.yaml',
      'workloads/checkout/Service.checkout.k8s.yaml',
    ]);
  });

  test('the Application validates against the tightened v3.5.1 CRD and points at its workloads', () => {
    const application = yamlOf(tree['applications/payments/Application.checkout.k8s.yaml']);
    expect(crdErrors('application', '3.5', application)).toEqual([]);
    expect(application.spec.source.path).toBe('dist/workloads/checkout');
  });

  test('its output matches the committed snapshot', () => {
    expect(tree).toMatchSnapshot();
  });
});
