import { useMemo } from 'preact/hooks';
import { encode } from 'uqr';

/** `text` as a QR code drawn in SVG by the page itself (no image from anywhere, no inline style). */
export function QrCode(props: { text: string; label: string }) {
  const { d, size } = useMemo(() => {
    const qr = encode(props.text, { ecc: 'M', border: 2 });
    const parts: string[] = [];
    qr.data.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
      });
    });
    return { d: parts.join(''), size: qr.size };
  }, [props.text]);
  return (
    <svg
      class="qr"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${size} ${size}`}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
