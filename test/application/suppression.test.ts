import { ApiObject, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Suppressions } from '../../src/application/suppression';

function configMap(): ApiObject {
  const chart = new Chart(Testing.app(), 'payments', { namespace: 'payments' });
  return new ApiObject(chart, 'settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
}

function annotationsOf(obj: ApiObject): Record<string, string> {
  return obj.toJson().metadata?.annotations ?? {};
}

describe('Suppressions.add', () => {
  test('writes the trimmed reason as a suppress annotation', () => {
    // GIVEN an ApiObject in a chart
    const obj = configMap();
    // WHEN a rule is suppressed on it, with a padded, multi-space reason
    Suppressions.add(obj, { ruleId: 'SA006', reason: '  retries are handled by\n   the release pipeline  ' });
    // THEN the annotation holds the cleaned reason
    expect(annotationsOf(obj)).toEqual({ 'safe-argocd/suppress.SA006': 'retries are handled by the release pipeline' });
  });

  test('reaches the ApiObject of a cdk8s-plus construct', () => {
    // GIVEN a Deployment construct (whose default child is the ApiObject)
    const chart = new Chart(Testing.app(), 'payments', { namespace: 'payments' });
    const web = new kplus.Deployment(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
    // WHEN a rule is suppressed on the construct
    Suppressions.add(web, { ruleId: 'SA007', reason: 'pinned by the image digest instead' });
    // THEN the rendered object carries the annotation
    expect(annotationsOf(ApiObject.of(web))['safe-argocd/suppress.SA007']).toBe('pinned by the image digest instead');
  });

  test('keeps suppressions of different rules side by side', () => {
    // GIVEN an object with one suppression
    const obj = configMap();
    Suppressions.add(obj, { ruleId: 'SA006', reason: 'retries are handled by the release pipeline' });
    // WHEN a second rule is suppressed on it
    Suppressions.add(obj, { ruleId: 'SA008', reason: 'this app is meant to be empty at times' });
    // THEN both annotations are there
    expect(Object.keys(annotationsOf(obj)).sort()).toEqual(['safe-argocd/suppress.SA006', 'safe-argocd/suppress.SA008']);
  });

  test('fails when the rule id is unknown', () => {
    // GIVEN an object
    const obj = configMap();
    // WHEN a rule that does not exist is suppressed
    const add = () => Suppressions.add(obj, { ruleId: 'SA999', reason: 'retries are handled by the release pipeline' });
    // THEN it is refused with the suppression code, naming the object's path and the value
    expect(add).toThrow(/\[SAFE-012\]/);
    expect(add).toThrow(/payments\/settings: ruleId is "SA999"/);
    expect(annotationsOf(obj)).toEqual({});
  });

  test.each(['', 'because', '   short   '])('fails when the reason is too short: %p', (reason) => {
    // GIVEN an object
    const obj = configMap();
    // WHEN a rule is suppressed with a reason under 10 characters
    const add = () => Suppressions.add(obj, { ruleId: 'SA006', reason });
    // THEN it is refused with the suppression code and nothing is written
    expect(add).toThrow(/\[SAFE-012\]/);
    expect(add).toThrow(/reason/);
    expect(annotationsOf(obj)).toEqual({});
  });

  test('fails when the same rule is suppressed twice on one object', () => {
    // GIVEN an object on which SA006 is suppressed
    const obj = configMap();
    Suppressions.add(obj, { ruleId: 'SA006', reason: 'retries are handled by the release pipeline' });
    // WHEN SA006 is suppressed again, with another reason
    const again = () => Suppressions.add(obj, { ruleId: 'SA006', reason: 'some other reason given later' });
    // THEN it is refused with the duplicate code and the first reason stays
    expect(again).toThrow(/\[SAFE-011\]/);
    expect(annotationsOf(obj)['safe-argocd/suppress.SA006']).toBe('retries are handled by the release pipeline');
  });

  test('allows the same rule on two different objects', () => {
    // GIVEN two objects
    const a = configMap();
    const b = configMap();
    // WHEN SA006 is suppressed on each
    Suppressions.add(a, { ruleId: 'SA006', reason: 'retries are handled by the release pipeline' });
    Suppressions.add(b, { ruleId: 'SA006', reason: 'retries are handled by the release pipeline' });
    // THEN each carries its own annotation
    expect(annotationsOf(a)['safe-argocd/suppress.SA006']).toBeDefined();
    expect(annotationsOf(b)['safe-argocd/suppress.SA006']).toBeDefined();
  });
});
