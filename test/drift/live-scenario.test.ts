import { deployment } from './support';
import { LiveScenario } from '../../src';

// LiveScenario builds what a cluster returns after a client-side apply (kubectl apply, which Argo CD
// runs by default): the last-applied-configuration annotation, managedFields, API defaults.

const DESIRED = JSON.stringify(deployment());

describe('liveFrom', () => {
  test('unchanged: the desired object with last-applied, managedFields of argocd-controller and API defaults', () => {
    // WHEN a live object is built from Git's Deployment
    const live = JSON.parse(LiveScenario.unchanged().liveFrom(DESIRED));

    // THEN it carries the annotation, one managedFields entry, and the Deployment defaults
    expect(JSON.parse(live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'])).toEqual(deployment());
    expect(live.metadata.managedFields.map((m: any) => m.manager)).toEqual(['argocd-controller']);
    expect(live.spec.replicas).toBe(1);
    expect(live.spec.template).toEqual((deployment() as any).spec.template);
  });

  test('hpaScales records kube-controller-manager on the scale subresource as the owner of spec.replicas', () => {
    const live = JSON.parse(LiveScenario.hpaScales(8).liveFrom(DESIRED));
    expect(live.spec.replicas).toBe(8);
    expect(live.metadata.managedFields.find((m: any) => m.manager === 'kube-controller-manager'))
      .toMatchObject({ subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  });

  test('kubectlSetImage changes one container\'s image and owns it through a k: path', () => {
    const live = JSON.parse(LiveScenario.kubectlSetImage('web', 'registry.acme.internal/web:hotfix').liveFrom(DESIRED));
    expect(live.spec.template.spec.containers).toEqual([{ ...(deployment() as any).spec.template.spec.containers[0], image: 'registry.acme.internal/web:hotfix' }]);
    expect(live.metadata.managedFields.find((m: any) => m.manager === 'kubectl-set').fieldsV1).toEqual({
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:image': {} } } } } },
    });
  });

  test('kubectlEdit through a list index changes only that field (its own documented example pointer)', () => {
    // GIVEN the pointer from kubectlEdit's documentation, through containers/0
    const pointer = '/spec/template/spec/containers/0/resources/limits/memory';

    // WHEN the edit is applied
    const live = JSON.parse(LiveScenario.kubectlEdit(pointer, '"4Gi"').liveFrom(DESIRED));

    // THEN containers is still a list with the web container, now with the new limit
    const containers = live.spec.template.spec.containers;
    expect(Array.isArray(containers)).toBe(true);
    expect(containers[0].name).toBe('web');
    expect(containers[0].image).toBe('registry.acme.internal/web:1.0.0');
    expect(containers[0].resources).toEqual({ limits: { memory: '4Gi' } });
  });

  test('fails when kubectlEdit gets a malformed pointer or a value that is not JSON', () => {
    expect(() => LiveScenario.kubectlEdit('spec/replicas', '3')).toThrow(/\[SAFE-007\]/);
    expect(() => LiveScenario.kubectlEdit('/spec/replicas', 'three')).toThrow(/\[SAFE-102\]/);
  });
});

describe('LiveScenario.liveFrom input', () => {
  test.each([
    ['not YAML', 'kind: [unclosed', /^\[SAFE-102\] LiveScenario\.liveFrom: desired: YAML error at line 1, column \d+: /],
    ['two objects', 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: b}\n', /found 2 Kubernetes object\(s\)/],
    ['a template', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n', /contains template expressions/],
    ['nothing', '', /found nothing/],
  ])('refuses %s, naming the method and the reason', (_what, text, message) => {
    expect(() => LiveScenario.hpaScales(3).liveFrom(text)).toThrow(message);
  });
});
