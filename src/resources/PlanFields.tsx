// Two form widgets of the catalogue for pictures: an image chosen from a file (`widget: 'upload'`, a floor plan's
// drawing) and owned rows shown as pins on such a picture (children `pins`, the doors of a floor plan). A click on
// the picture pins a new row there; a click on a pin chooses it, and the next click on the picture moves it.
import { useRef, useState } from 'react';
import { Button, FileInput } from '@blueprintjs/core';
import { base64Bytes } from '../../contract/primitives';
import { tx } from '../i18n';
import { fileSize } from '../ui/fileSize';
import './planFields.css';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** A file chosen in a form field, read as a data: URL once `refuse` finds nothing wrong with it (else said on the field). */
function useChosenFile(onChange: (v: string | null) => void, refuse: (file: File) => string | null) {
  const [problem, setProblem] = useState<string | null>(null); // visual: what is wrong with the file chosen (before it is sent)
  const [name, setName] = useState<string | null>(null); // visual: the chosen file's name
  const choose = (file: File | undefined) => {
    if (!file) return;
    const wrong = refuse(file);
    if (wrong) {
      setProblem(wrong);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      setProblem(null);
      setName(file.name);
      onChange(String(reader.result));
    };
    reader.onerror = () => setProblem(tx('The file could not be read'));
    reader.readAsDataURL(file);
  };
  return { problem, name, setName, choose };
}

/** An image field: the picture (if any), a file chooser, and Remove. A wrong type or size is said on the field. */
export function ImageUpload({
  id,
  value,
  onChange,
  maxBytes,
  invalid,
}: {
  id: string;
  value: string | null | undefined;
  onChange: (v: string | null) => void;
  maxBytes?: number;
  invalid?: boolean;
}) {
  const { problem, name, setName, choose } = useChosenFile(onChange, (file) =>
    !IMAGE_TYPES.includes(file.type)
      ? tx('Choose a PNG, JPEG, WebP or GIF picture')
      : maxBytes && file.size > maxBytes
        ? tx('The picture is {size}; at most {max} fits', { size: fileSize(file.size), max: fileSize(maxBytes) })
        : null,
  );
  return (
    <div className="gh-image-upload">
      {value && <img src={value} alt="" className="gh-image-upload__preview" data-testid={`${id}-preview`} />}
      <div className="gh-image-upload__row">
        <FileInput
          text={name ?? (value ? tx('Replace the picture…') : tx('Choose a picture…'))}
          buttonText={tx('Browse')}
          hasSelection={!!name}
          inputProps={{ id, accept: IMAGE_TYPES.join(','), 'aria-invalid': invalid || !!problem } as never}
          onInputChange={(e) => choose((e.currentTarget as HTMLInputElement).files?.[0])}
        />
        {value && (
          <Button
            variant="minimal"
            intent="danger"
            icon="trash"
            onClick={() => {
              setName(null);
              onChange(null);
            }}
          >
            {tx('Remove')}
          </Button>
        )}
      </div>
      {problem && (
        <div className="bp6-form-helper-text gh-image-upload__problem" role="alert">
          {problem}
        </div>
      )}
    </div>
  );
}

/**
 * A file field (a firmware image): the chosen file's name and size, or the stored one's size, a file chooser and
 * Remove. Any type; too large is said on the field before anything is sent.
 */
export function FileUpload({
  id,
  value,
  onChange,
  maxBytes,
  invalid,
}: {
  id: string;
  value: string | null | undefined;
  onChange: (v: string | null) => void;
  maxBytes?: number;
  invalid?: boolean;
}) {
  const stored = value ? base64Bytes(value.split(',')[1] ?? '') : 0;
  const { problem, name, choose } = useChosenFile(onChange, (file) =>
    file.size === 0
      ? tx('The file is empty')
      : maxBytes && file.size > maxBytes
        ? tx('The file is {size}; at most {max} fits', { size: fileSize(file.size), max: fileSize(maxBytes) })
        : null,
  );
  return (
    <div className="gh-image-upload">
      <div className="gh-image-upload__row">
        <FileInput
          text={name ?? (value ? tx('Replace the file ({size})…', { size: fileSize(stored) }) : tx('Choose a file…'))}
          buttonText={tx('Browse')}
          hasSelection={!!name || !!value}
          inputProps={{ id, 'aria-invalid': invalid || !!problem } as never}
          onInputChange={(e) => choose((e.currentTarget as HTMLInputElement).files?.[0])}
          data-testid={`${id}-file`}
        />
        {name && (
          <span className="bp6-text-muted" data-testid={`${id}-chosen`}>
            {fileSize(stored)}
          </span>
        )}
      </div>
      {problem && (
        <div className="bp6-form-helper-text gh-image-upload__problem" role="alert">
          {problem}
        </div>
      )}
    </div>
  );
}

/** The rows of a pinned children field over the picture; positions are per mille of the width and height. */
export function PinBoard({
  image,
  rows,
  x,
  y,
  itemLabel,
  onPlace,
  onMove,
}: {
  image: string;
  rows: Record<string, unknown>[];
  x: string;
  y: string;
  itemLabel: string;
  onPlace: (x: number, y: number) => void;
  onMove: (index: number, x: number, y: number) => void;
}) {
  const [chosen, setChosen] = useState<number | null>(null); // visual: the door chosen to pin
  const frame = useRef<HTMLDivElement | null>(null);
  const place = (e: React.MouseEvent) => {
    const r = frame.current!.getBoundingClientRect();
    const px = Math.min(1000, Math.max(0, Math.round(((e.clientX - r.left) / r.width) * 1000)));
    const py = Math.min(1000, Math.max(0, Math.round(((e.clientY - r.top) / r.height) * 1000)));
    if (chosen !== null) {
      onMove(chosen, px, py);
      setChosen(null);
    } else onPlace(px, py);
  };
  return (
    <div className="gh-pins gh-field--wide">
      <p className="bp6-text-muted" data-testid="pins-hint">
        {chosen === null
          ? tx('Click the plan to pin a new {what} there; click a pin to move it.', { what: itemLabel.toLowerCase() })
          : tx('Click the plan where {what} {n} goes.', { what: itemLabel.toLowerCase(), n: chosen + 1 })}
      </p>
      <div className="gh-pins__frame" ref={frame} onClick={place} data-testid="pins-frame">
        <img src={image} alt="" draggable={false} />
        {rows.map((row, i) => {
          const px = Number(row[x]);
          const py = Number(row[y]);
          if (!Number.isFinite(px) || !Number.isFinite(py) || String(row[x]) === '' || String(row[y]) === '') return null;
          return (
            <button
              type="button"
              key={i}
              className={`gh-pins__pin${chosen === i ? ' gh-pins__pin--chosen' : ''}`}
              style={{ left: `${px / 10}%`, top: `${py / 10}%` }}
              aria-label={`${itemLabel} ${i + 1}`}
              data-testid="pin"
              onClick={(e) => {
                e.stopPropagation();
                setChosen(chosen === i ? null : i);
              }}
            >
              {i + 1}
            </button>
          );
        })}
      </div>
    </div>
  );
}
