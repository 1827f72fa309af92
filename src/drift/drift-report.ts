/**
 * What Argo CD would see and do for one resource.
 */
export interface DriftReport {
  /** Whether the resource is OutOfSync after Argo CD's normalization. */
  readonly outOfSync: boolean;

  /** The JSON pointers that differ after normalization (what the Argo CD diff shows); `''` for a missing resource. */
  readonly differences: string[];

  /** Whether the Application self-heals (automated sync with selfHeal). */
  readonly selfHeal: boolean;

  /** The JSON pointers self-heal would change now (empty when Synced or not self-healing). */
  readonly selfHealReverts: string[];

  /**
   * The JSON pointers that applying Git's object would change in live: what happens at the next sync of
   * this resource, whatever triggers it (self-heal, a commit that changes it, a manual sync).
   */
  readonly applyReverts: string[];

  /** The JSON pointers of ignored fields that live has and an apply leaves as they are. */
  readonly keptIgnored: string[];

  /** Whether RespectIgnoreDifferences=true shaped the apply. */
  readonly respectIgnoreDifferences: boolean;

  /** The live object after that apply, as JSON, with the API server's defaults for deleted fields. */
  readonly liveAfterApply: string;

  /** Normalizations that could not be applied (a failing jq expression, an unparsable annotation). */
  readonly warnings: string[];
}
