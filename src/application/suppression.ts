import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { badValue, ErrorCode } from '../core/errors';
import { suppressionKey } from '../core/suppressions';
import { findRule } from '../rules/registry';

/**
 * A reasoned decision to accept one rule's finding on one object.
 */
export interface Suppression {
  /** The rule id, e.g. `SA006`. See RULES.md. */
  readonly ruleId: string;
  /** Why the finding is acceptable here. Recorded on the object and listed by `safe-argocd audit`. */
  readonly reason: string;
}

const recorded = new WeakMap<ApiObject, Set<string>>();

/**
 * Writes suppressions onto objects, as `safe-argocd/suppress.<ruleId>: <reason>` annotations, where
 * both synth and audit read them.
 */
export class Suppressions {
  /**
   * Suppresses one rule on the object rendered by `scope` (an ApiObject, or a construct whose
   * default child is one).
   */
  public static add(scope: IConstruct, suppression: Suppression): void {
    const obj = ApiObject.of(scope);
    if (!findRule(suppression.ruleId)) {
      throw badValue(ErrorCode.INVALID_SUPPRESSION, obj, 'ruleId', suppression.ruleId,
        'is not the id of any rule', 'use a rule id listed in RULES.md, e.g. "SA006"');
    }
    if (typeof suppression.reason !== 'string' || suppression.reason.trim().length < 10) {
      throw badValue(ErrorCode.INVALID_SUPPRESSION, obj, 'reason', suppression.reason,
        'must say, in at least 10 characters, why the finding is acceptable here', `write the reason a reviewer would need, e.g. { ruleId: '${suppression.ruleId}', reason: 'retries are handled by the release pipeline' }`);
    }
    const done = recorded.get(obj) ?? new Set<string>();
    if (done.has(suppression.ruleId)) {
      throw badValue(ErrorCode.DUPLICATE, obj, 'ruleId', suppression.ruleId,
        'is already suppressed on this object', 'suppress each rule once per object, with one reason');
    }
    done.add(suppression.ruleId);
    recorded.set(obj, done);
    obj.metadata.addAnnotation(suppressionKey(suppression.ruleId), suppression.reason.trim().replace(/\s+/g, ' '));
  }

  private constructor() {}
}
