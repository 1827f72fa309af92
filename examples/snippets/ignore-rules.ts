import { ApiObject, JsonPatch } from 'cdk8s';
import {
  IgnoreRule, IgnoreTarget, JqPath, KnownFieldOwner, SafeApplication, Suppressions,
} from '../../src';

/**
 * Ignore rules, field owners, an escape hatch and a reasoned suppression, on an app and the objects it deploys.
 */
export function tuneCheckout(app: SafeApplication, deployment: ApiObject, webhook: ApiObject): void {
  // One field of one object, with the reason it belongs to someone other than Git.
  app.addIgnoreRule(IgnoreRule.jsonPointer(IgnoreTarget.fromApiObject(deployment), '/spec/template/metadata/annotations/example.com~1restartedAt', 'set by the restart tool'));

  // A container injected into the pod template, selected by name with a typed jq path.
  app.addIgnoreRule(IgnoreRule.jq(IgnoreTarget.fromApiObject(deployment), JqPath.podTemplateContainer('vault-agent'), 'injected by the vault operator'));

  // A controller that owns fields: cert-manager writes the CA bundle of this webhook configuration.
  app.addFieldOwner(IgnoreTarget.fromApiObject(webhook), KnownFieldOwner.certManagerCaInjector());

  // An escape hatch the rules still check, accepted with a reason recorded on the object.
  ApiObject.of(app).addJsonPatch(JsonPatch.remove('/spec/syncPolicy/retry'));
  app.addSuppression({ ruleId: 'SA006', reason: 'retries are driven by the release pipeline' });

  // A suppression on a workload object.
  Suppressions.add(deployment, { ruleId: 'SA101', reason: 'replicas stay fixed while the HPA is being rolled out' });
}
