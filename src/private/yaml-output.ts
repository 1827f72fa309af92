import { Document, Scalar, visit } from 'yaml';

// What a YAML 1.2 core-schema reader (and Go's base-0 integer parsing) takes for something other than a string.
const NOT_A_STRING_IN_1_2 = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/**
 * One manifest as YAML, the way cdk8s writes it (YAML 1.1 quoting, no line folding), with every string that
 * a YAML 1.2 or Go reader would take for a number, boolean or null (`0o17`) quoted as well.
 */
export function manifestYaml(manifest: unknown): string {
  const doc = new Document(manifest, { version: '1.1', keepUndefined: true });
  visit(doc, {
    Scalar(_key, node: Scalar) {
      if (typeof node.value === 'string' && NOT_A_STRING_IN_1_2.test(node.value)) {
        node.type = Scalar.QUOTE_DOUBLE;
      }
    },
  });
  return doc.toString({ lineWidth: 0 });
}
