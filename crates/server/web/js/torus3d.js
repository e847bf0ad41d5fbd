// The 3D view of a torus board (issue 35): the board drawn on a doughnut with three.js, beside
// the flat board and in step with it. Pointing in 3D feeds the flat board's own `click`, so turns
// are matched, previewed and chosen by exactly the same code (board.js, turns.js); this view only
// draws the flat board's state and turns a pointer position into a square's name.
//
// The torus: files run round the big ring (file K..J, left to right as White sees the front),
// ranks round the tube (rank 11 at the bottom of the tube, up the outside, over the top, down
// the inside). The file seam J|K lies at the back of the ring, the rank seam 10|11 underneath.

import { matchClicks, isCaptureStep } from './turns.js';
import { drawingKey, pieceSvg } from './pieces.js';

/** What the toggle says where the browser cannot draw in 3D. */
export const NO_WEBGL = 'This browser cannot draw the 3D torus (WebGL is missing or turned off), so the flat board stays.';

const PREF = 'menagerie:torus3d';
const R = 2.2; // the ring's radius
const TUBE = 1.0; // the tube's radius
const PX = 128; // one square in texture pixels
const START_TILT = 0.55; // radians the start view looks down on the ring
const START_DISTANCE = 13.5;
const COLORS = {
  light: '#eee3c8',
  dark: '#b58a5c',
  'court-light': '#cfd9e2',
  'court-dark': '#8ea3b6',
  'border-light': '#e9d48c',
  'border-dark': '#c9aa4a',
  last: 'rgba(155, 199, 0, 0.41)',
  selected: 'rgba(20, 85, 30, 0.5)',
  dest: 'rgba(20, 85, 30, 0.55)',
  start: 'rgba(201, 116, 43, 0.5)',
  check: 'rgba(230, 30, 30, 0.55)',
  seam: '#c9742b',
  coord: 'rgba(31, 36, 33, 0.5)',
};
// The piece drawings' colours as a style sheet inside each sprite's own SVG (style.css cannot
// reach into an image).
const PIECE_STYLE = `.b{stroke-width:3.5;stroke-linejoin:round}.white .b{fill:#fbfbf7;stroke:#1c1c1c}
.black .b{fill:#262626;stroke:#0a0a0a}.d{stroke-width:3}.o{fill:none;stroke-width:3}
.white .o{stroke:#1c1c1c}.black .o{stroke:#e8e8e8}.white .d{stroke:#1c1c1c;fill:#1c1c1c}
.black .d{stroke:#e8e8e8;fill:#e8e8e8}.l{font-weight:800;font-family:sans-serif}.white .l{fill:#1c1c1c}.black .l{fill:#f4f4f4}`;

/** Whether this browser can draw with WebGL. */
export function webglAvailable() {
  try {
    const c = document.createElement('canvas');
    const gl = c.getContext('webgl2') || c.getContext('webgl');
    if (!gl) return false;
    const lose = gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
    return true;
  } catch {
    return false;
  }
}

/** Whether a snapshot's board wraps both ways (the only boards the 3D view draws). */
function isTorus(snapshot) {
  const g = snapshot && snapshot.geometry;
  return !!(g && g.wrap_files && g.wrap_ranks);
}

/**
 * Adds the "3D torus" toggle to `tools` (the row of buttons under the flat `board`) and draws
 * the 3D view in the board's place while it is on. The choice is kept in localStorage.
 * Returns an object with `view()` (the 3D view, once drawn) for the page and its tests.
 */
export function mountTorusView(board, tools) {
  const toggle = document.createElement('label');
  toggle.className = 'torus-toggle';
  toggle.hidden = true;
  toggle.innerHTML = '<input type="checkbox" id="torus-3d"> 3D torus';
  const box = toggle.querySelector('input');
  const reset = document.createElement('button');
  reset.type = 'button';
  reset.id = 'torus-start-view';
  reset.hidden = true;
  reset.title = 'Back to the start view: your side of the board towards you';
  reset.textContent = 'Start view (3D)';
  const note = document.createElement('span');
  note.className = 'torus-note';
  note.id = 'torus-note';
  note.hidden = true;
  tools.append(toggle, reset, note);

  let gl = null; // whether WebGL works, asked once a torus is shown (not on every flat game)
  let view = null;
  let loading = null;
  let failed = null;

  const sync = () => {
    const torus = isTorus(board.snapshot);
    if (torus && gl === null) {
      gl = webglAvailable();
      box.checked = gl && localStorage.getItem(PREF) === '1';
      box.disabled = !gl;
    }
    toggle.hidden = !torus;
    note.hidden = !torus || (gl && !failed);
    note.textContent = failed || NO_WEBGL;
    const on = torus && gl && !failed && box.checked;
    reset.hidden = !on;
    board.wrap.classList.toggle('torus-on', on && !!view);
    if (view) view.host.hidden = !on;
    if (!on) return;
    if (view) {
      view.update();
      return;
    }
    if (loading) return;
    loading = import('three')
      .then((THREE) => {
        view = new TorusView(THREE, board);
        sync();
      })
      .catch((e) => {
        failed = `The 3D torus could not be drawn (${e && e.message ? e.message : e}), so the flat board stays.`;
        sync();
      });
  };

  // Follow every drawing of the flat board: it owns the position, the clicks and the chooser.
  const drawFlat = board.render.bind(board);
  board.render = () => {
    drawFlat();
    sync();
  };
  box.addEventListener('change', () => {
    localStorage.setItem(PREF, box.checked ? '1' : '0');
    sync();
  });
  reset.addEventListener('click', () => view && view.startView());
  sync();
  return { view: () => view };
}

/** The 3D view of a torus board, drawing `board`'s state and pointing through `board.click`. */
export class TorusView {
  constructor(THREE, board) {
    this.T = THREE;
    this.board = board;
    this.host = document.createElement('div');
    this.host.className = 'torus3d';
    this.host.torusView = this; // for the page's tests: screenPoint(name) and the like
    board.wrap.insertBefore(this.host, board.overlay);
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true, alpha: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.canvas = this.renderer.domElement;
    this.canvas.setAttribute('tabindex', '0');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', 'The board on a torus: drag to turn it, wheel or pinch to zoom, click squares to play');
    this.host.appendChild(this.canvas);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(34, 1, 0.1, 100);
    this.camera.add(new THREE.DirectionalLight(0xffffff, 1.6));
    this.scene.add(this.camera);
    this.scene.add(new THREE.AmbientLight(0xffffff, 1.5));
    this.ring = new THREE.Group();
    this.scene.add(this.ring);
    this.paper = document.createElement('canvas');
    this.texture = new THREE.CanvasTexture(this.paper);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.texture.anisotropy = 4;
    this.mesh = new THREE.Mesh(this.torusGeometry(), new THREE.MeshLambertMaterial({ map: this.texture }));
    this.ring.add(this.mesh);
    this.pieces = new THREE.Group();
    this.ring.add(this.pieces);
    this.sprites = new Map(); // owner:kind -> texture
    this.piecesKey = null;
    this.raycaster = new THREE.Raycaster();
    this.pending = false;
    this.startView();
    this.listen();
    new ResizeObserver(() => this.resize()).observe(this.host);
    this.resize();
    this.update();
  }

  get geometry() {
    return this.board.snapshot.geometry;
  }

  /** Whether the board is seen from Black's side (the page's Flip, or Black's seat). */
  get flipped() {
    return this.board.orientation === 'black';
  }

  /**
   * Where square (file, rank) is drawn on the torus, in squares: itself, or turned half round
   * both ways when flipped (as the flat board turns), so that the viewer's own side faces
   * them in the start view. Its own inverse.
   */
  drawnAt(file, rank) {
    const g = this.geometry;
    return this.flipped ? [g.width - 1 - file, g.height - 1 - rank] : [file, rank];
  }

  /** A point of the torus and its outward normal at board coordinates (s along files, t along ranks, in squares). */
  surface(s, t, lift = 0) {
    const g = this.geometry;
    const phi = (s / g.width - 0.5) * 2 * Math.PI; // the front of the ring is the middle file boundary
    const theta = (t / g.height) * 2 * Math.PI - Math.PI / 2; // the rank seam is underneath
    const rho = R + (TUBE + lift) * Math.cos(theta);
    const n = new this.T.Vector3(Math.cos(theta) * Math.sin(phi), Math.sin(theta), Math.cos(theta) * Math.cos(phi));
    const p = new this.T.Vector3(rho * Math.sin(phi), (TUBE + lift) * Math.sin(theta), rho * Math.cos(phi));
    return { p, n };
  }

  /** The torus with texture coordinates that are the board's own: u = file / width, v = rank / height. */
  torusGeometry() {
    const g = this.geometry;
    const nu = g.width * 8;
    const nv = g.height * 6;
    const pos = [];
    const nor = [];
    const uv = [];
    const idx = [];
    for (let j = 0; j <= nv; j++) {
      for (let i = 0; i <= nu; i++) {
        const { p, n } = this.surface((i / nu) * g.width, (j / nv) * g.height);
        pos.push(p.x, p.y, p.z);
        nor.push(n.x, n.y, n.z);
        uv.push(i / nu, j / nv);
      }
    }
    for (let j = 0; j < nv; j++) {
      for (let i = 0; i < nu; i++) {
        const a = j * (nu + 1) + i;
        const b = a + 1;
        const d = a + nu + 1;
        const c = d + 1;
        idx.push(a, b, d, b, c, d);
      }
    }
    const geo = new this.T.BufferGeometry();
    geo.setIndex(idx);
    geo.setAttribute('position', new this.T.Float32BufferAttribute(pos, 3));
    geo.setAttribute('normal', new this.T.Float32BufferAttribute(nor, 3));
    geo.setAttribute('uv', new this.T.Float32BufferAttribute(uv, 2));
    return geo;
  }

  /** Back to the start view: the viewer's side (White's ranks 1 and 2, or Black's when flipped) towards them, the ring seen from above. */
  startView() {
    this.ring.quaternion.setFromAxisAngle(new this.T.Vector3(1, 0, 0), START_TILT);
    this.distance = START_DISTANCE;
    this.place();
  }

  place() {
    this.camera.position.set(0, 0, this.distance);
    this.camera.lookAt(0, 0, 0);
    this.host.dataset.distance = this.distance.toFixed(2);
    this.redraw();
  }

  /** Turn the torus by `dx`, `dy` radians about the screen's vertical and horizontal axes. */
  turn(dx, dy) {
    const q = new this.T.Quaternion();
    q.setFromAxisAngle(new this.T.Vector3(0, 1, 0), dx);
    this.ring.quaternion.premultiply(q);
    q.setFromAxisAngle(new this.T.Vector3(1, 0, 0), dy);
    this.ring.quaternion.premultiply(q);
    this.redraw();
  }

  zoom(factor) {
    this.distance = Math.max(5, Math.min(22, this.distance * factor));
    this.place();
  }

  resize() {
    const w = this.host.clientWidth || 600;
    const h = this.host.clientHeight || w;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.redraw();
  }

  /** Draw the next frame (the view draws only when something changed: software WebGL is slow). */
  redraw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.renderer.render(this.scene, this.camera);
      this.host.dataset.frames = String(Number(this.host.dataset.frames || 0) + 1);
    });
  }

  // ----- the flat board's state, drawn -----

  /** Draw the flat board's state: squares, highlights, pieces. */
  update() {
    const board = this.board;
    if (!board.snapshot || !isTorus(board.snapshot)) return;
    const shown = board.shown();
    const m = board.interactive ? matchClicks(board.legal, board.clicks) : null;
    const last = board.clicks.length ? [] : shown.last_turn || [];
    const selected = new Set(board.clicks);
    const targets = new Map();
    if (m) {
      for (const [name, turns] of m.next) {
        const sq = shown.squares.find((s) => s.name === name);
        if (board.clicks.length > 0) targets.set(name, isCaptureStep(turns, name, board.snapshot, board.mover) ? 'capture' : 'move');
        else if (sq && !sq.piece) targets.set(name, 'start');
      }
    }
    this.paint(shown, { last: new Set(last), selected, targets, checked: this.checkedKing(shown) });
    this.placePieces(shown);
    const d = this.host.dataset;
    d.last = last.join(' ');
    d.selected = board.clicks.join(' ');
    d.orientation = board.orientation;
    d.targets = [...targets.keys()].sort().join(' ');
    this.redraw();
  }

  checkedKing(board) {
    if (!board.check) return null;
    const sq = board.squares.find((s) => s.piece && drawingKey(s.piece.kind) === 'king' && s.piece.owner === board.turn);
    return sq ? sq.name : null;
  }

  /** The board's texture: one PX square per board square, rank 0 at the bottom (texture v = 0). */
  paint(board, { last, selected, targets, checked }) {
    const g = board.geometry;
    const W = g.width;
    const H = g.height;
    if (this.paper.width !== W * PX) {
      this.paper.width = W * PX;
      this.paper.height = H * PX;
    }
    const c = this.paper.getContext('2d');
    for (const sq of board.squares) {
      const [df, dr] = this.drawnAt(sq.file, sq.rank);
      const x = df * PX;
      const y = (H - 1 - dr) * PX;
      const marks = sq.marks || [];
      const shade = (sq.file + sq.rank) % 2 === 0 ? 'dark' : 'light';
      const zone = marks.includes('court') ? 'court-' : marks.includes('border') ? 'border-' : '';
      c.fillStyle = COLORS[zone + shade];
      c.fillRect(x, y, PX, PX);
      const fill = (color) => {
        c.fillStyle = color;
        c.fillRect(x, y, PX, PX);
      };
      if (last.has(sq.name)) fill(COLORS.last);
      if (selected.has(sq.name)) fill(COLORS.selected);
      const mid = PX / 2;
      if (checked === sq.name) {
        c.fillStyle = COLORS.check;
        c.beginPath();
        c.arc(x + mid, y + mid, PX * 0.48, 0, 2 * Math.PI);
        c.fill();
      }
      const target = targets.get(sq.name);
      if (target === 'capture') {
        c.strokeStyle = COLORS.dest;
        c.lineWidth = PX * 0.08;
        c.beginPath();
        c.arc(x + mid, y + mid, PX * 0.4, 0, 2 * Math.PI);
        c.stroke();
      } else if (target) {
        c.fillStyle = target === 'start' ? COLORS.start : COLORS.dest;
        c.beginPath();
        c.arc(x + mid, y + mid, PX * (target === 'start' ? 0.1 : 0.17), 0, 2 * Math.PI);
        c.fill();
      }
      // the game's names along rings: file names round the first rank (beside the rank seam)
      // and round the middle one, rank names round the first file (beside the file seam) and
      // round the middle one
      c.fillStyle = COLORS.coord;
      c.font = `600 ${Math.round(PX * 0.24)}px system-ui, sans-serif`;
      if (dr === 0 || dr === Math.floor(H / 2) - 1) {
        c.textAlign = 'right';
        c.fillText(g.files[sq.file], x + PX - 8, y + PX - 10);
      }
      if (df === 0 || df === Math.floor(W / 2)) {
        c.textAlign = 'left';
        c.fillText(g.ranks[sq.rank], x + 8, y + PX * 0.28);
      }
    }
    // the seams, where the flat drawing is cut: J|K at the texture's left and right edges,
    // the last rank | the first at its top and bottom
    c.fillStyle = COLORS.seam;
    const t = 5;
    c.fillRect(0, 0, t, H * PX);
    c.fillRect(W * PX - t, 0, t, H * PX);
    c.fillRect(0, 0, W * PX, t);
    c.fillRect(0, H * PX - t, W * PX, t);
    this.texture.needsUpdate = true;
  }

  /** The pieces as upright pictures standing on their squares. */
  placePieces(board) {
    const key = this.board.orientation + board.squares.map((s) => (s.piece ? `${s.name}:${s.piece.owner}:${s.piece.kind}` : '')).join(',');
    if (key === this.piecesKey) return;
    this.piecesKey = key;
    for (const old of this.pieces.children) old.material.dispose();
    this.pieces.clear();
    const placed = [];
    for (const sq of board.squares) {
      if (!sq.piece) continue;
      const sprite = new this.T.Sprite(new this.T.SpriteMaterial({ map: this.pieceTexture(sq.piece), alphaTest: 0.3 }));
      // lifted off the surface along its normal, so that it stands clear of the curved tube
      // from every side it can be seen from
      const [df, dr] = this.drawnAt(sq.file, sq.rank);
      const { p } = this.surface(df + 0.5, dr + 0.5, 0.2);
      sprite.position.copy(p);
      sprite.scale.set(0.56, 0.56, 1);
      sprite.userData.square = sq.name;
      this.pieces.add(sprite);
      placed.push(`${sq.name}:${sq.piece.owner}:${sq.piece.kind}`);
    }
    this.host.dataset.pieces = placed.sort().join(' ');
  }

  pieceTexture(piece) {
    const id = `${piece.owner}:${piece.kind}`;
    if (this.sprites.has(id)) return this.sprites.get(id);
    const canvas = document.createElement('canvas');
    canvas.width = 128;
    canvas.height = 128;
    const texture = new this.T.CanvasTexture(canvas);
    texture.colorSpace = this.T.SRGBColorSpace;
    this.sprites.set(id, texture);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="128" height="128"><style>${PIECE_STYLE}</style>${pieceSvg(piece)}</svg>`;
    const img = new Image();
    img.onload = () => {
      canvas.getContext('2d').drawImage(img, 0, 0, 128, 128);
      texture.needsUpdate = true;
      this.redraw();
    };
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    return texture;
  }

  // ----- pointing -----

  /** The square under the client point (x, y): a piece standing there, else the surface's texture coordinates. */
  squareAt(x, y) {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new this.T.Vector2(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.camera);
    const hits = this.raycaster.intersectObjects([this.mesh, ...this.pieces.children], false);
    const hit = hits[0];
    if (!hit) return null;
    if (hit.object !== this.mesh) return hit.object.userData.square;
    const g = this.geometry;
    const [f, rank] = this.drawnAt(Math.min(g.width - 1, Math.floor(hit.uv.x * g.width)), Math.min(g.height - 1, Math.floor(hit.uv.y * g.height)));
    const sq = this.board.snapshot.squares[rank * g.width + f];
    return sq ? sq.name : null;
  }

  /**
   * Where square `name`'s centre is on the screen (client pixels), or null when it cannot be
   * pointed at from here: the first thing a ray through that point meets must be the centre
   * itself (found from the geometry, not from the texture coordinates that `squareAt` reads)
   * or the square's own piece.
   */
  screenPoint(name) {
    const sq = this.board.snapshot.squares.find((s) => s.name === name);
    if (!sq) return null;
    this.ring.updateMatrixWorld(true);
    const [df, dr] = this.drawnAt(sq.file, sq.rank);
    const centre = this.surface(df + 0.5, dr + 0.5).p.applyMatrix4(this.ring.matrixWorld);
    const p = centre.clone().project(this.camera);
    if (Math.abs(p.x) > 1 || Math.abs(p.y) > 1) return null;
    this.raycaster.setFromCamera(new this.T.Vector2(p.x, p.y), this.camera);
    const hit = this.raycaster.intersectObjects([this.mesh, ...this.pieces.children], false)[0];
    const seen = hit && (hit.object === this.mesh ? hit.point.distanceTo(centre) < 0.05 : hit.object.userData.square === name);
    if (!seen) return null;
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
  }

  listen() {
    const c = this.canvas;
    const pointers = new Map();
    let press = null;
    let pinch = null;
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== undefined && e.button !== 0) return;
      c.setPointerCapture && e.pointerId !== undefined && c.setPointerCapture(e.pointerId);
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 1) press = { x: e.clientX, y: e.clientY, moved: false };
      else {
        press = null;
        const [a, b] = [...pointers.values()];
        pinch = Math.hypot(a.x - b.x, a.y - b.y);
      }
      e.preventDefault();
    });
    c.addEventListener('pointermove', (e) => {
      const prev = pointers.get(e.pointerId);
      if (!prev) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2 && pinch) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (d > 0) this.zoom(pinch / d);
        pinch = d;
        return;
      }
      if (!press) return;
      if (!press.moved && Math.hypot(e.clientX - press.x, e.clientY - press.y) < 6) return;
      press.moved = true;
      const k = 4 / (c.clientWidth || 600); // a drag across the view turns it by about 4 radians
      this.turn((e.clientX - prev.x) * k, (e.clientY - prev.y) * k);
    });
    const up = (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (e.type === 'pointerup' && press && !press.moved) {
        const name = this.squareAt(e.clientX, e.clientY);
        if (name) this.board.click(name);
      }
      press = null;
    };
    c.addEventListener('pointerup', up);
    c.addEventListener('pointercancel', up);
    c.addEventListener(
      'wheel',
      (e) => {
        this.zoom(Math.exp(e.deltaY * 0.0015));
        e.preventDefault();
      },
      { passive: false },
    );
    c.addEventListener('keydown', (e) => {
      // the view's own keys, kept from the page (where the arrows step through the moves)
      const handled = () => {
        e.preventDefault();
        e.stopPropagation();
      };
      const step = 0.2;
      const keys = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (keys[e.key]) {
        this.turn(...keys[e.key]);
        handled();
      } else if (e.key === 'Home' || e.key === '0') {
        this.startView();
        handled();
      } else if (e.key === '+' || e.key === '-') {
        this.zoom(e.key === '+' ? 0.9 : 1.1);
        handled();
      } else if (e.key === 'Escape') {
        this.board.cancel();
      }
    });
    c.addEventListener('contextmenu', (e) => e.preventDefault());
  }
}
