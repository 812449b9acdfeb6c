#pragma once
// Errors the engine reports to callers. Every rejected operation throws ecsia::Error with a code a
// program can branch on and a message a person can act on; the world is left unchanged (G5).

#include <stdexcept>
#include <string>

namespace ecsia {

enum class ErrorCode {
    CapacityExceeded,   // max_entities, a reservation, or a handle layout is full
    StaleEntity,        // the handle is null, despawned, or from an older generation (G4)
    MissingComponent,   // the entity does not have the component the operation needs
    UnknownComponent,   // no component with that name or id is registered
    UnknownField,       // the component has no field of that name
    BadValue,           // a value does not fit its field type, or is otherwise out of range
    BadDefinition,      // a component or handle layout definition is malformed
    DuplicateName,      // a component or system with that name already exists
    WrongPhase,         // a structural change during a wave, outside a command buffer
    BadPlan,            // cycles or unknown names in system ordering
    WorkerFailure,      // a worker pool could not start or missed a deadline
    Disposed,           // the object was disposed
    UnknownSystem,      // no system is registered under that name (ECSIA_REGISTER_SYSTEM)
    BadSnapshot,        // the bytes are not a valid snapshot: truncated, corrupt, another version, inconsistent
    SnapshotMismatch,   // a valid snapshot this world cannot take: a component missing or defined differently
    UndeclaredAccess,   // a kernel touched a component its system did not declare (access checks)
    UnknownTopic,       // no topic with that name or id is defined, or a system does not consume it
};

const char* to_string(ErrorCode code) noexcept;

class Error : public std::runtime_error {
public:
    Error(ErrorCode code, const std::string& message)
        : std::runtime_error(std::string(to_string(code)) + ": " + message), code_(code) {}
    ErrorCode code() const noexcept { return code_; }

private:
    ErrorCode code_;
};

}  // namespace ecsia
