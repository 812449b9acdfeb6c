#pragma once
// The numbers and names the JS layer shares with the engine, said once: wasm/boundary_constants.cmake
// generates web/internal/constants.js from the lists below whenever the build is configured
// (a change here shows up there; never edit that file by hand), and the static_asserts tie each
// entry to the core's own definition, so neither side can drift.
// Thread rule: constants only.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "ecsia/entity/entity.hpp"
#include "ecsia/relation/relation.hpp"
#include "ecsia/schedule/wave_placement.hpp"
#include "ecsia/schema/field_type.hpp"

// X(NAME, value, what it is as a string): plain numbers, one per line.
#define ECSIA_BOUNDARY_NUMBERS(X)                                                                         \
    X(NULL_ENTITY, 0xFFFFFFFF, "The null entity handle: no entity (an entity field's default).")         \
    X(VALUE_ALIGNMENT, 8, "Encoded values (wasm/encoded_values.hpp) start each part at a multiple of this.") \
    X(ANY_TARGET, 0xFFFFFFFF, "The wildcard target of pair calls and pair terms ('*' in JS): any target.") \
    X(WHOLE_ELEMENT, 0xFFFFFFFF, "The set exports' field mask for a whole element (bit i: field i).")    \
    X(FRAME_RECORD_HEADER, 6, "A frame record's header (scheduler_binding.hpp last_frame_record), in doubles.") \
    X(FRAME_RECORD_WAVE, 7, "A frame record's doubles per wave.")                                         \
    X(FRAME_RECORD_BATCH, 7, "A frame record's doubles per batch.")                                       \
    X(FRAME_RECORD_WORKER, 2, "A frame record's doubles per worker.")                                    \
    X(TIMING_QUEUE_FRAME, 2, "User Timing's queue (scheduler_binding.hpp take_timing_queue): doubles a frame.") \
    X(TIMING_QUEUE_WAVE, 4, "User Timing's queue: doubles per wave of a frame.")                   \
    X(MAX_BULK_COUNT, 0xFFFFFFFF, "The most entities one bulk call (spawnMany, instantiateMany) takes: the exports count in 32 bits.") \
    X(MAX_SCRATCH_BYTES, 0xFFFFFFFF, "The largest scratch area the engine hands JS: the export takes its size in 32 bits.")

// X(Enumerator, its name as a string): the field types in FieldType order, as components name them.
#define ECSIA_BOUNDARY_FIELD_TYPES(X) \
    X(F32, "f32")                     \
    X(F64, "f64")                     \
    X(I8, "i8")                       \
    X(I16, "i16")                     \
    X(I32, "i32")                     \
    X(U8, "u8")                       \
    X(U16, "u16")                     \
    X(U32, "u32")                     \
    X(Bool, "bool")                   \
    X(Entity, "entity")

// X(Enumerator, its name as a string): what despawning a target does to its subjects
// (OnDeleteTarget order), as defineRelation's `onDeleteTarget` option names it.
#define ECSIA_BOUNDARY_ON_DELETE_TARGETS(X) \
    X(Remove, "remove")                      \
    X(Delete, "delete")

// X(Enumerator, its name as a string): where a wave's batches ran (WavePlacement order), as
// lastFrame() names it.
#define ECSIA_BOUNDARY_WAVE_PLACEMENTS(X) \
    X(Inline, "inline")                    \
    X(Pool, "pool")                        \
    X(Shared, "shared")

namespace ecsia::wasm {

#define ECSIA_BOUNDARY_NUMBER(name, value, what) inline constexpr std::uint32_t k##name = value##u;
ECSIA_BOUNDARY_NUMBERS(ECSIA_BOUNDARY_NUMBER)
#undef ECSIA_BOUNDARY_NUMBER

static_assert(kNULL_ENTITY == kNullEntity.bits);
static_assert(kANY_TARGET == kAnyTarget.bits);
static_assert(kMAX_BULK_COUNT == UINT32_MAX && kMAX_SCRATCH_BYTES == UINT32_MAX,
              "the exports take counts and sizes as std::uint32_t");

namespace detail {
#define ECSIA_BOUNDARY_FIELD_TYPE(enumerator, name) FieldType::enumerator,
inline constexpr FieldType kBoundaryFieldTypes[] = {ECSIA_BOUNDARY_FIELD_TYPES(ECSIA_BOUNDARY_FIELD_TYPE)};
#undef ECSIA_BOUNDARY_FIELD_TYPE
constexpr bool in_enum_order() {
    for (std::size_t i = 0; i < std::size(kBoundaryFieldTypes); ++i) {
        if (static_cast<std::size_t>(kBoundaryFieldTypes[i]) != i) return false;
    }
    return std::size(kBoundaryFieldTypes) == static_cast<std::size_t>(FieldType::Entity) + 1;
}
static_assert(in_enum_order(), "ECSIA_BOUNDARY_FIELD_TYPES lists every FieldType once, in enum order");
#define ECSIA_BOUNDARY_FIELD_TYPE_NAMED(enumerator, name) && field_type_name(FieldType::enumerator) == std::string_view(name)
static_assert(true ECSIA_BOUNDARY_FIELD_TYPES(ECSIA_BOUNDARY_FIELD_TYPE_NAMED),
              "ECSIA_BOUNDARY_FIELD_TYPES names each type as the core's field_type_name does");
#undef ECSIA_BOUNDARY_FIELD_TYPE_NAMED

#define ECSIA_BOUNDARY_ON_DELETE_TARGET(enumerator, name) OnDeleteTarget::enumerator,
inline constexpr OnDeleteTarget kBoundaryOnDeleteTargets[] = {ECSIA_BOUNDARY_ON_DELETE_TARGETS(ECSIA_BOUNDARY_ON_DELETE_TARGET)};
#undef ECSIA_BOUNDARY_ON_DELETE_TARGET
constexpr bool on_delete_in_enum_order() {
    for (std::size_t i = 0; i < std::size(kBoundaryOnDeleteTargets); ++i) {
        if (static_cast<std::size_t>(kBoundaryOnDeleteTargets[i]) != i) return false;
    }
    return std::size(kBoundaryOnDeleteTargets) == static_cast<std::size_t>(OnDeleteTarget::Delete) + 1;
}
static_assert(on_delete_in_enum_order(), "ECSIA_BOUNDARY_ON_DELETE_TARGETS lists every OnDeleteTarget once, in enum order");
#define ECSIA_BOUNDARY_ON_DELETE_NAMED(enumerator, name) && on_delete_target_name(OnDeleteTarget::enumerator) == std::string_view(name)
static_assert(true ECSIA_BOUNDARY_ON_DELETE_TARGETS(ECSIA_BOUNDARY_ON_DELETE_NAMED),
              "ECSIA_BOUNDARY_ON_DELETE_TARGETS names each policy as the core's on_delete_target_name does");
#undef ECSIA_BOUNDARY_ON_DELETE_NAMED

#define ECSIA_BOUNDARY_WAVE_PLACEMENT(enumerator, name) WavePlacement::enumerator,
inline constexpr WavePlacement kBoundaryWavePlacements[] = {ECSIA_BOUNDARY_WAVE_PLACEMENTS(ECSIA_BOUNDARY_WAVE_PLACEMENT)};
#undef ECSIA_BOUNDARY_WAVE_PLACEMENT
constexpr bool placements_in_enum_order() {
    for (std::size_t i = 0; i < std::size(kBoundaryWavePlacements); ++i) {
        if (static_cast<std::size_t>(kBoundaryWavePlacements[i]) != i) return false;
    }
    return std::size(kBoundaryWavePlacements) == static_cast<std::size_t>(WavePlacement::Shared) + 1;
}
static_assert(placements_in_enum_order(), "ECSIA_BOUNDARY_WAVE_PLACEMENTS lists every WavePlacement once, in enum order");
#define ECSIA_BOUNDARY_PLACEMENT_NAMED(enumerator, name) && std::string_view(placement_name(WavePlacement::enumerator)) == name
static_assert(true ECSIA_BOUNDARY_WAVE_PLACEMENTS(ECSIA_BOUNDARY_PLACEMENT_NAMED),
              "ECSIA_BOUNDARY_WAVE_PLACEMENTS names each placement as the core's placement_name does");
#undef ECSIA_BOUNDARY_PLACEMENT_NAMED
}  // namespace detail

}  // namespace ecsia::wasm
