// Generated from wasm/boundary_constants.hpp by wasm/boundary_constants.cmake when the build is
// configured: edit the header, never this file. The numbers and names JS shares with the engine.

/** The null entity handle: no entity (an entity field's default). */
export const NULL_ENTITY = 0xFFFFFFFF;
/** Encoded values (wasm/encoded_values.hpp) start each part at a multiple of this. */
export const VALUE_ALIGNMENT = 8;
/** The wildcard target of pair calls and pair terms ('*' in JS): any target. */
export const ANY_TARGET = 0xFFFFFFFF;
/** The set exports' field mask for a whole element (bit i: field i). */
export const WHOLE_ELEMENT = 0xFFFFFFFF;
/** A frame record's header (scheduler_binding.hpp last_frame_record), in doubles. */
export const FRAME_RECORD_HEADER = 6;
/** A frame record's doubles per wave. */
export const FRAME_RECORD_WAVE = 7;
/** A frame record's doubles per batch. */
export const FRAME_RECORD_BATCH = 7;
/** A frame record's doubles per worker. */
export const FRAME_RECORD_WORKER = 2;
/** User Timing's queue (scheduler_binding.hpp take_timing_queue): doubles a frame. */
export const TIMING_QUEUE_FRAME = 2;
/** User Timing's queue: doubles per wave of a frame. */
export const TIMING_QUEUE_WAVE = 4;
/** The most entities one bulk call (spawnMany, instantiateMany) takes: the exports count in 32 bits. */
export const MAX_BULK_COUNT = 0xFFFFFFFF;
/** The largest scratch area the engine hands JS: the export takes its size in 32 bits. */
export const MAX_SCRATCH_BYTES = 0xFFFFFFFF;
/** The field types, in the engine's order (FieldType). */
export const FIELD_TYPES = Object.freeze(['f32', 'f64', 'i8', 'i16', 'i32', 'u8', 'u16', 'u32', 'bool', 'entity']);
/** defineRelation's onDeleteTarget values, in the engine's order (OnDeleteTarget). */
export const ON_DELETE_TARGETS = Object.freeze(['remove', 'delete']);
/** Where a wave's batches ran, in the engine's order (WavePlacement). */
export const WAVE_PLACEMENTS = Object.freeze(['inline', 'pool', 'shared']);
