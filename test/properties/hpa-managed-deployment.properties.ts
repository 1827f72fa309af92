import { Chart } from 'cdk8s';
import * as fc from 'fast-check';
import {
  argoCdVersion, autoscalerOf, checkTree, dnsLabel, Doc, image, newApp, nonInteger, notSubdomain, refusalProperties, runs, scaler,
} from './support';
import { Autoscaler, GitOpsApp, HpaManagedDeployment, HpaOptions } from '../../src';

const container = fc.record({
  name: dnsLabel,
  image,
  portNumber: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  securityContext: fc.option(fc.record({ user: fc.integer({ min: 1, max: 65535 }), group: fc.integer({ min: 1, max: 65535 }) }), { nil: undefined }),
});

const input = fc.record({
  appName: dnsLabel,
  version: argoCdVersion,
  deployments: fc.uniqueArray(fc.record({
    name: fc.option(dnsLabel, { nil: undefined }),
    scaler,
    containers: fc.uniqueArray(container, { minLength: 1, maxLength: 2, selector: (c) => c.name }),
  }), { minLength: 1, maxLength: 2, selector: (d) => d.name ?? {} }),
});

describe('HpaManagedDeployment properties', () => {
  test('for any props the constructor accepts (every Autoscaler kind): no spec.replicas, one replicas ignore entry each, valid objects', () => {
    fc.assert(fc.property(input, (i) => {
      // GIVEN a fresh app with one or two autoscaled Deployments of arbitrary valid props
      const build = () => {
        const { gitops, app } = newApp(i.appName, i.version);
        i.deployments.forEach((d, n) => new HpaManagedDeployment(app, `web-${n}`, {
          metadata: d.name === undefined ? undefined : { name: d.name },
          autoscaler: autoscalerOf(d.scaler),
          containers: d.containers,
        }));
        return gitops;
      };
      // WHEN the tree is rendered THEN it passes every check (no spec.replicas on any of them included)
      const { gitops, docs, byKindName } = checkTree(build);
      const made = gitops.node.findAll().filter((c): c is HpaManagedDeployment => c instanceof HpaManagedDeployment);
      const entries: Doc[] = byKindName.get(`Application/${i.appName}`)!.spec.ignoreDifferences;
      expect(entries).toHaveLength(i.deployments.length);
      i.deployments.forEach((d, n) => {
        const name = made[n].deployment.name;
        expect(byKindName.get(`Deployment/${name}`)!.spec.replicas).toBeUndefined();
        // THEN exactly one entry ignores this Deployment's replicas
        expect(entries.filter((e) => e.kind === 'Deployment' && e.name === name)).toEqual([
          { group: 'apps', kind: 'Deployment', name, namespace: 'payments', jsonPointers: ['/spec/replicas'] },
        ]);
        const hpa = byKindName.get(`HorizontalPodAutoscaler/${name}`);
        if (d.scaler.kind === 'hpa') {
          // THEN the HPA targets it, with the bounds, memory before CPU
          const o = d.scaler.options;
          expect(hpa!.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
          expect([hpa!.spec.minReplicas, hpa!.spec.maxReplicas]).toEqual([o.minReplicas ?? 2, o.maxReplicas]);
          expect(hpa!.spec.metrics.map((m: Doc) => [m.resource.name, m.resource.target.averageUtilization])).toEqual([
            ...(o.memoryUtilizationPercent !== undefined ? [['memory', o.memoryUtilizationPercent]] : []),
            ...(o.cpuUtilizationPercent !== undefined ? [['cpu', o.cpuUtilizationPercent]] : []),
          ]);
        } else {
          expect(hpa).toBeUndefined();
        }
      });
      expect(docs.filter((x) => x.kind === 'HorizontalPodAutoscaler')).toHaveLength(i.deployments.filter((d) => d.scaler.kind === 'hpa').length);
    }), runs(2101));
  });
});

const hpaBase: HpaOptions = { minReplicas: 2, maxReplicas: 10, cpuUtilizationPercent: 70 };
const badPercent = fc.oneof(fc.integer({ min: -100, max: 0 }), fc.integer({ min: 1001, max: 100000 }), nonInteger.filter((x) => x > 0 && x < 1000));

refusalProperties('HpaManagedDeployment and Autoscaler refusals', {
  'Autoscaler.hpa minReplicas': fc.oneof(fc.integer({ min: -100, max: 0 }), nonInteger, fc.constantFrom(NaN, -Infinity))
    .map((minReplicas) => () => Autoscaler.hpa({ ...hpaBase, minReplicas, maxReplicas: 10000 })),
  'Autoscaler.hpa maxReplicas': fc.integer({ min: 1, max: 100 }).chain((min) => fc.oneof(
    fc.integer({ min: -10, max: min - 1 }), fc.integer({ min: 10001, max: 1e7 }), nonInteger.filter((x) => x > min),
  ).map((maxReplicas) => () => Autoscaler.hpa({ ...hpaBase, minReplicas: min, maxReplicas }))),
  'Autoscaler.hpa cpuUtilizationPercent': badPercent.map((cpuUtilizationPercent) => () => Autoscaler.hpa({ ...hpaBase, cpuUtilizationPercent })),
  'Autoscaler.hpa memoryUtilizationPercent': badPercent.map((memoryUtilizationPercent) => () => Autoscaler.hpa({ ...hpaBase, memoryUtilizationPercent })),
  'Autoscaler.hpa cpuUtilizationPercent (no metric at all)': fc.integer({ min: 1, max: 10 }).map((minReplicas) => () => Autoscaler.hpa({ minReplicas, maxReplicas: 10 })),
  'Autoscaler.kedaScaledObject name': notSubdomain.map((n) => () => Autoscaler.kedaScaledObject(n)),
  'Autoscaler.externalHpa name': notSubdomain.map((n) => () => Autoscaler.externalHpa(n)),
  'HpaManagedDeployment scope': dnsLabel.map((id) => () => new HpaManagedDeployment(new Chart(new GitOpsApp({ outdir: 'dist' }), id), 'web', {
    autoscaler: Autoscaler.externalHpa('web'), containers: [{ image: 'nginx:1' }],
  })),
}, 2400);
