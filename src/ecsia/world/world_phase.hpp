#pragma once

namespace ecsia {

// Serial: the coordinator owns the world; any operation is legal.
// Wave: workers run kernels; reads and value writes of existing components are legal, structural
// changes (spawn, despawn, add, remove) must be recorded in a command buffer instead.
enum class WorldPhase { Serial, Wave };

}  // namespace ecsia
