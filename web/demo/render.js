// Draws the particles straight from the position and velocity columns: WebGL2 points fed by
// bufferSubData from the zero-copy views, or Canvas 2D pixels where WebGL2 is missing; then the
// orbiting bodies (positions only) as larger points.

const WORLD = 1000;

const VERTEX = `#version 300 es
in vec2 position;
in vec2 velocity;
uniform vec2 scale;
uniform vec2 offset;
uniform float pointSize;
out vec3 tint;
void main() {
  gl_Position = vec4(position * scale + offset, 0.0, 1.0);
  gl_PointSize = pointSize;
  float speed = clamp(length(velocity) / 220.0, 0.0, 1.0);
  tint = mix(vec3(0.25, 0.45, 1.0), vec3(1.0, 0.75, 0.35), speed);
}`;
const FRAGMENT = `#version 300 es
precision mediump float;
in vec3 tint;
out vec4 color;
void main() { color = vec4(tint, 0.85); }`;

function fit(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const width = Math.floor(canvas.clientWidth * ratio);
  const height = Math.floor(canvas.clientHeight * ratio);
  if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
  const side = Math.min(width, height) * 0.96;
  return { width, height, side };
}

export function createRenderer(canvas) {
  const gl = canvas.getContext('webgl2', { antialias: false, premultipliedAlpha: false });
  const toWorld = (clientX, clientY) => {
    const { width, height, side } = fit(canvas);
    const ratio = window.devicePixelRatio || 1;
    return [((clientX * ratio - (width - side) / 2) / side) * WORLD, ((clientY * ratio - (height - side) / 2) / side) * WORLD];
  };
  return gl ? webgl(gl, canvas, toWorld) : canvas2d(canvas, toWorld);
}

function webgl(gl, canvas, toWorld) {
  const compile = (type, source) => {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
    return shader;
  };
  const program = gl.createProgram();
  gl.attachShader(program, compile(gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, compile(gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(program);
  let copyViews = false;  // set if this browser refuses shared-memory views in bufferSubData
  const upload = (buffer, offsetBytes, view) => {
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    if (!copyViews) {
      try {
        gl.bufferSubData(gl.ARRAY_BUFFER, offsetBytes, view);
        return;
      } catch {
        copyViews = true;
      }
    }
    gl.bufferSubData(gl.ARRAY_BUFFER, offsetBytes, view.slice());
  };
  // Points whose attributes are the named 2-float columns, in a vertex array of their own; fill()
  // uploads every chunk's columns one after another (growing the buffers as needed) and returns
  // how many points there are.
  const pointSet = (names) => {
    const buffers = names.map(() => gl.createBuffer());
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    names.forEach((name, i) => {
      const location = gl.getAttribLocation(program, name);
      gl.bindBuffer(gl.ARRAY_BUFFER, buffers[i]);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, 2, gl.FLOAT, false, 0, 0);
    });
    let capacity = 0;
    return {
      vao,
      fill(chunks) {
        const total = chunks.reduce((n, c) => n + (c.stale ? 0 : c.count), 0);
        if (total > capacity) {
          capacity = Math.max(total, capacity * 2);
          for (const buffer of buffers) {
            gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
            gl.bufferData(gl.ARRAY_BUFFER, capacity * 8, gl.DYNAMIC_DRAW);
          }
        }
        let at = 0;
        for (const chunk of chunks) {
          if (chunk.stale) continue;
          names.forEach((name, i) => upload(buffers[i], at * 8, chunk.columns[name]));
          at += chunk.count;
        }
        return at;
      },
    };
  };
  const particles = pointSet(['position', 'velocity']);
  const bodyPoints = pointSet(['position']);
  return {
    toWorld,
    draw(chunks, bodies = []) {
      const { width, height, side } = fit(canvas);
      gl.viewport(0, 0, width, height);
      gl.clearColor(0.02, 0.024, 0.04, 1);
      gl.clear(gl.COLOR_BUFFER_BIT);
      const at = particles.fill(chunks);
      gl.useProgram(program);
      gl.uniform2f(gl.getUniformLocation(program, 'scale'), (2 * side) / width / WORLD, (-2 * side) / height / WORLD);
      gl.uniform2f(gl.getUniformLocation(program, 'offset'), -side / width, side / height);
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE);
      gl.uniform1f(gl.getUniformLocation(program, 'pointSize'), 1.6);
      gl.bindVertexArray(particles.vao);
      gl.drawArrays(gl.POINTS, 0, at);
      // The bodies: a constant "fast" velocity attribute gives them the warm end of the tint.
      const bodyCount = bodyPoints.fill(bodies);
      gl.bindVertexArray(bodyPoints.vao);
      gl.vertexAttrib2f(gl.getAttribLocation(program, 'velocity'), 400, 0);
      gl.uniform1f(gl.getUniformLocation(program, 'pointSize'), 7);
      gl.drawArrays(gl.POINTS, 0, bodyCount);
    },
    // Pixels brighter than the background, read back in the same task as a draw (the tests).
    litPixels(chunks, bodies) {
      this.draw(chunks, bodies);
      const pixels = new Uint8Array(canvas.width * canvas.height * 4);
      gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      let lit = 0;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i] + pixels[i + 1] + pixels[i + 2] > 60) lit += 1;
      return lit;
    },
  };
}

function canvas2d(canvas, toWorld) {
  const context = canvas.getContext('2d');
  return {
    toWorld,
    draw(chunks, bodies = []) {
      const { width, height, side } = fit(canvas);
      const image = context.createImageData(width, height);
      const pixels = new Uint32Array(image.data.buffer);
      pixels.fill(0xff0a0605);
      const x0 = (width - side) / 2;
      const y0 = (height - side) / 2;
      for (const chunk of chunks) {
        if (chunk.stale) continue;
        const p = chunk.columns.position;
        for (let i = 0; i < chunk.count; i++) {
          const x = Math.floor(x0 + (p[2 * i] / WORLD) * side);
          const y = Math.floor(y0 + (p[2 * i + 1] / WORLD) * side);
          if (x >= 0 && y >= 0 && x < width && y < height) pixels[y * width + x] = 0xffffb070;
        }
      }
      for (const chunk of bodies) {
        if (chunk.stale) continue;
        const p = chunk.columns.position;
        for (let i = 0; i < chunk.count; i++) {
          const cx = Math.floor(x0 + (p[2 * i] / WORLD) * side);
          const cy = Math.floor(y0 + (p[2 * i + 1] / WORLD) * side);
          for (let y = cy - 2; y <= cy + 2; y++) {
            for (let x = cx - 2; x <= cx + 2; x++) if (x >= 0 && y >= 0 && x < width && y < height) pixels[y * width + x] = 0xff40c0ff;
          }
        }
      }
      context.putImageData(image, 0, 0);
    },
    litPixels(chunks, bodies) {
      this.draw(chunks, bodies);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      let lit = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] > 60) lit += 1;
      return lit;
    },
  };
}
