import { buildCheckoutApp } from './app';

// Writes dist/applications/payments/Application.checkout.k8s.yaml and dist/workloads/checkout/*.k8s.yaml.
buildCheckoutApp({ outdir: 'dist' }).synth();
