import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * A QR code as SVG: dark squares on a white quiet zone in either colour mode, as the cameras of
 * authenticator apps read best. One path of unit squares, drawn crisp at any size.
 */
export function QrCode({ value, label, className = '' }: { value: string; label: string; className?: string }) {
  const { size, path } = useMemo(() => {
    const { data, size: modules } = encode(value, { ecc: 'M', border: 4 });
    const squares: string[] = [];
    data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) squares.push(`M${x} ${y}h1v1h-1z`);
      }),
    );
    return { size: modules, path: squares.join('') };
  }, [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={`rounded-md bg-white ${className}`}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
