import { ArgoProject } from '../../src/values/argo-project';

describe('ArgoProject.fromName', () => {
  test.each(['payments', 'team-a', 'platform.prod'])('references the AppProject %p', (name) => {
    // GIVEN an AppProject name
    // WHEN it is referenced
    const project = ArgoProject.fromName(name);
    // THEN the reference carries that name
    expect(project.projectName).toBe(name);
  });

  test('fails when the project is "default"', () => {
    // GIVEN the default project, which allows every source, destination and kind
    // WHEN it is referenced
    const make = () => ArgoProject.fromName('default');
    // THEN it is refused with its own code
    expect(make).toThrow(/\[SAFE-002\]/);
    expect(make).toThrow(/ArgoProject\.fromName: projectName is "default"/);
  });

  test.each(['Bad_Name', '', 'Default', '-payments', 'a'.repeat(254)])('fails when the name is %p', (name) => {
    // GIVEN something that is not an AppProject name
    // WHEN it is referenced
    const make = () => ArgoProject.fromName(name);
    // THEN it is refused with the name code
    expect(make).toThrow(/\[SAFE-001\]/);
    expect(make).toThrow(/ArgoProject\.fromName: projectName/);
  });
});
