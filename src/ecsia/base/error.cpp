#include "ecsia/base/error.hpp"

namespace ecsia {

const char* to_string(ErrorCode code) noexcept {
    switch (code) {
        case ErrorCode::CapacityExceeded: return "CapacityExceeded";
        case ErrorCode::StaleEntity: return "StaleEntity";
        case ErrorCode::MissingComponent: return "MissingComponent";
        case ErrorCode::UnknownComponent: return "UnknownComponent";
        case ErrorCode::UnknownField: return "UnknownField";
        case ErrorCode::BadValue: return "BadValue";
        case ErrorCode::BadDefinition: return "BadDefinition";
        case ErrorCode::DuplicateName: return "DuplicateName";
        case ErrorCode::WrongPhase: return "WrongPhase";
        case ErrorCode::BadPlan: return "BadPlan";
        case ErrorCode::WorkerFailure: return "WorkerFailure";
        case ErrorCode::Disposed: return "Disposed";
        case ErrorCode::UnknownSystem: return "UnknownSystem";
        case ErrorCode::BadSnapshot: return "BadSnapshot";
        case ErrorCode::SnapshotMismatch: return "SnapshotMismatch";
        case ErrorCode::UndeclaredAccess: return "UndeclaredAccess";
        case ErrorCode::UnknownTopic: return "UnknownTopic";
    }
    return "Error";
}

}  // namespace ecsia
