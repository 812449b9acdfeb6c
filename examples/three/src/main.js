// ecsia-wasm + three.js: 50,000 bodies orbiting a centre. A JS kernel (kernels.js) moves them on
// the engine's workers; at the end of every frame the scheduler's extract copies their positions
// (in wasm) into a buffer the page owns; three.js draws one small mesh per body, instanced, with
// the body's position added in the vertex shader. So the page never loops over entities and never
// copies them: the extract's position column is the instanced attribute's array, and one
// bufferSubData uploads it from wasm memory.
//
// window.threeExample holds what the overlay shows (e2e/three.spec.js and bench/three.mjs read
// it): the frame count and the frame time split, in ms per frame averaged over recent frames
// (`split`; `totals` sums them since the first frame):
//   engine   scheduler.update(): from the call until its promise settles (the kernel's batches,
//            on the workers or the page as the engine places them; the extract's copy).
//   extract  extract.latest(), whose position column becomes the attribute's array.
//   upload   the instance data reaching the GPU: a render pass of the mesh with its material
//            hidden, in which three.js uploads the changed attribute (gl.bufferSubData) and draws
//            nothing, until the GPU has done it (waitForGpu).
//   draw     renderer.clear() and renderer.render() of the scene, until the GPU has drawn it.
// Each phase runs alone (update() is awaited before drawing, each GPU phase waits for the GPU),
// so the four add up to the frame's work. An app after throughput instead would start frame N+1's
// update() before drawing frame N from the extract, and never wait for the GPU.
import { loadEcsia } from 'ecsia-wasm';
import {
  DynamicDrawUsage, InstancedBufferAttribute, InstancedBufferGeometry, Mesh, MeshNormalMaterial, PerspectiveCamera, Scene,
  TetrahedronGeometry, WebGLRenderer,
} from 'three';
import { GM, SOFTENING2 } from './kernels.js';
import kernels from './kernels.js?ecsia-kernels';  // its URL, for the workers (vite.config.js)

const INSTANCES = 50_000;
const DT = 1 / 60;
const AVERAGE_OVER = 60;  // frames the split and the frame rate are averaged over
const PHASES = ['engine', 'extract', 'upload', 'draw'];
const BACKGROUND = 0x05060a;

// A thin disc of bodies on nearly circular orbits, inner ones faster, so the disc shears into
// arms. This loop runs once, at setup; the frames never touch an entity on the page.
function galaxy(count) {
  const position = { x: new Float32Array(count), y: new Float32Array(count), z: new Float32Array(count) };
  const velocity = { dx: new Float32Array(count), dy: new Float32Array(count), dz: new Float32Array(count) };
  for (let i = 0; i < count; i += 1) {
    const r = 30 + 270 * Math.sqrt(Math.random());  // evenly spread over the disc's area
    const angle = 2 * Math.PI * Math.random();
    const r2 = r * r + SOFTENING2;
    const speed = r * Math.sqrt(GM / (r2 * Math.sqrt(r2))) * (0.9 + 0.2 * Math.random());
    position.x[i] = r * Math.cos(angle);
    position.y[i] = (Math.random() - 0.5) * 12;
    position.z[i] = r * Math.sin(angle);
    velocity.dx[i] = -speed * Math.sin(angle);
    velocity.dz[i] = speed * Math.cos(angle);
  }
  return { position, velocity };
}

function createEngine(ecsia) {
  const world = ecsia.createWorld({ maxEntities: INSTANCES });
  world.defineComponent('position', { x: 'f32', y: 'f32', z: 'f32' });
  world.defineComponent('velocity', { dx: 'f32', dy: 'f32', dz: 'f32' });
  world.spawnMany(INSTANCES, galaxy(INSTANCES));
  const scheduler = world.createScheduler();
  scheduler.addSystem({ name: 'Orbit', kernel: 'orbit', writes: ['position', 'velocity'] });
  return { scheduler, drawn: scheduler.extract({ components: ['position'] }) };
}

function createView(canvas) {
  const renderer = new WebGLRenderer({ canvas, antialias: false });
  renderer.setPixelRatio(devicePixelRatio);
  renderer.setClearColor(BACKGROUND);
  renderer.autoClear = false;  // the upload pass must leave the canvas alone; the draw pass clears
  const scene = new Scene();
  const camera = new PerspectiveCamera(50, 1, 1, 2000);
  camera.position.set(0, 330, 520);
  camera.lookAt(0, 0, 0);
  // One tetrahedron per instance. instancePosition is the extract's position column (x, y, z per
  // row) as an instanced attribute, added to each vertex before three.js projects it.
  const geometry = new InstancedBufferGeometry().copy(new TetrahedronGeometry(1.6));
  const instancePosition = new InstancedBufferAttribute(new Float32Array(3 * INSTANCES), 3)
    .setUsage(DynamicDrawUsage);
  geometry.setAttribute('instancePosition', instancePosition);
  const material = new MeshNormalMaterial({ flatShading: true });
  material.onBeforeCompile = (shader) => {
    shader.vertexShader = `attribute vec3 instancePosition;\n${shader.vertexShader}`
      .replace('#include <begin_vertex>', '#include <begin_vertex>\ntransformed += instancePosition;');
  };
  const mesh = new Mesh(geometry, material);
  mesh.frustumCulled = false;  // its bounding sphere is one tetrahedron's, not the disc's
  scene.add(mesh);
  const fit = () => {
    renderer.setSize(innerWidth, innerHeight, false);
    camera.aspect = innerWidth / innerHeight;
    camera.updateProjectionMatrix();
  };
  fit();
  addEventListener('resize', fit);
  // WebGL's gl.finish() only flushes in Chromium: reading one pixel back is what returns only once
  // the GPU has done all the work asked of it before.
  const gl = renderer.getContext();
  const pixel = new Uint8Array(4);
  const waitForGpu = () => gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
  return { renderer, waitForGpu, scene, camera, geometry, instancePosition, material, mesh };
}

async function main() {
  const ecsia = await loadEcsia({ kernels });
  const { scheduler, drawn } = createEngine(ecsia);
  const { renderer, waitForGpu, scene, camera, geometry, instancePosition, material, mesh } = createView(document.getElementById('view'));
  const overlay = document.getElementById('stats');
  const stats = Object.assign(window.threeExample, {
    variant: ecsia.variant,
    workers: ecsia.workers,
    isolated: crossOriginIsolated,
    instances: 0,
    frames: 0,
    workerJobs: 0,    // kernel batches the workers have run
    placement: null,  // where the last frame's batches ran: 'pool', 'shared' (workers and page) or 'inline' (page)
    split: Object.fromEntries(PHASES.map((phase) => [phase, 0])),
    totals: Object.fromEntries(PHASES.map((phase) => [phase, 0])),  // ms since the first frame
    fps: 0,
  });
  const recent = [];  // per frame of the last AVERAGE_OVER: the times each phase began, then when the last ended

  // One frame, its phases timed one after another (the top of this file says what each covers).
  async function step() {
    const marks = [performance.now()];
    await scheduler.update(DT);
    marks.push(performance.now());
    const frame = drawn.latest();  // the frame's copy, the page's until the next latest()
    // The extract's position column, in wasm memory, is the attribute's data: WebGL uploads it
    // from there, and the page copies nothing.
    instancePosition.array = frame.columns.position;
    instancePosition.needsUpdate = true;
    geometry.instanceCount = frame.count;
    marks.push(performance.now());
    // three.js uploads changed attributes while it prepares a mesh for a render, even one whose
    // material is hidden (then it draws nothing): that pass is the upload alone.
    material.visible = false;
    renderer.render(mesh, camera);
    material.visible = true;
    waitForGpu();
    marks.push(performance.now());
    renderer.clear();
    renderer.render(scene, camera);
    waitForGpu();
    marks.push(performance.now());
    record(marks, frame.count);
  }

  function record(marks, instances) {
    recent.push(marks);
    if (recent.length > AVERAGE_OVER) recent.shift();
    PHASES.forEach((phase, i) => {
      stats.split[phase] = recent.reduce((sum, m) => sum + m[i + 1] - m[i], 0) / recent.length;
      stats.totals[phase] += marks[i + 1] - marks[i];
    });
    if (recent.length > 1) stats.fps = ((recent.length - 1) * 1000) / (marks[0] - recent[0][0]);
    const { jobs, waves } = scheduler.lastFrame();
    Object.assign(stats, {
      instances, frames: stats.frames + 1, workerJobs: jobs.reduce((sum, n) => sum + n, 0), placement: waves[0].placement,
    });
    overlay.textContent = `${ecsia.variant} build, ${ecsia.workers} worker(s), batches ${stats.placement}\n` +
      `${instances.toLocaleString('en')} instances, frame ${stats.frames}, ${stats.fps.toFixed(1)} fps\n` +
      `ms/frame: ${PHASES.map((phase) => `${phase} ${stats.split[phase].toFixed(2)}`).join(' · ')}`;
  }

  const tick = () => step().then(() => requestAnimationFrame(tick), fail);
  requestAnimationFrame(tick);
}

function fail(error) {
  window.threeExample.error = error instanceof Error ? error.message : String(error);
  document.getElementById('stats').textContent = `failed: ${window.threeExample.error}`;
}

window.threeExample = {};
main().catch(fail);
