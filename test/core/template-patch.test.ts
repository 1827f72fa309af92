import { templatePatchMayRemoveFinalizers, templatePatchMaySet } from '../../src/core/template-patch';

describe('templatePatchMaySet: whether a templatePatch the audit cannot apply may set a field', () => {
  test.each([
    ['spec:\n  syncPolicy:\n    automated: {}\n', true],
    ['spec: {{ omit .spec "project" | toJson }}\n', true],
    ['{{- if .patch }}\n{{ .patch }}\n{{- end }}\n', true],
    ['- spec: {{ .spec }}\n', true],
    ['metadata:\n  labels:\n    cluster: {{ .name }}\n', false],
    ['{{- if eq .name "eu" }}\nspec:\n  project: default\n{{- end }}\n', false],
    ['{{/* spec: {{ .spec }} is not printed */}}\nmetadata:\n  labels: {}\n', false],
    ['{{- $x := .spec }}\nmetadata:\n  labels: {}\n', false],
  ])('%p may set spec.syncPolicy: %p', (patch, expected) => {
    expect(templatePatchMaySet(patch, ['spec', 'syncPolicy'])).toBe(expected);
  });
});

describe('templatePatchMayRemoveFinalizers: finalizers merge, so only a directive or a null removes one', () => {
  test.each([
    ['metadata:\n  finalizers:\n    - resources-finalizer.argocd.argoproj.io\n', false],
    ['metadata: {{ .metadata | toJson }}\n', false],
    ['metadata:\n  finalizers: null\n', true],
    ['{"metadata": {"finalizers": null}}', true],
    ['metadata:\n  $deleteFromPrimitiveList/finalizers:\n    - resources-finalizer.argocd.argoproj.io\n', true],
    ['metadata:\n  $patch: replace\n', true],
  ])('%p: %p', (patch, expected) => {
    expect(templatePatchMayRemoveFinalizers(patch)).toBe(expected);
  });
});
