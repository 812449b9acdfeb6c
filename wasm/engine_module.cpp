// The engine's own browser module (web/dist/ecsia_*, the package's) has no systems or components
// of its own: everything it holds comes from the bindings (wasm/bind_*.cpp), so `ecsia.systems` is
// empty and a new world holds only what the page defines. ecsia_add_browser_module() takes the
// sources of a module's own systems; this is the engine module's, and it is empty on purpose.
