/** The package an `ERESOLVE` names as the one it could not resolve, and the range it wanted. */
export function eresolveConflict(
  message: string,
): { name: string; wanted: string; from: string } | undefined {
  const match =
    /Could not resolve dependency:\s*\nnpm error (?:peerOptional |peer )?(@?[^@\s]+)@"([^"]+)" from (\S+)/.exec(
      message,
    );
  return match ? { name: match[1], wanted: match[2], from: match[3] } : undefined;
}
