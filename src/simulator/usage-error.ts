/**
 * The error every part of a simulated project throws on impossible requests. In its
 * own module so the parts (rewards, supports, wall...) and `SimProject` can all
 * import it without an import cycle.
 */

/** Thrown when a test or scenario asks for something the platform would not allow. */
export class SimulatorUsageError extends Error {
  override readonly name = 'SimulatorUsageError';
}
