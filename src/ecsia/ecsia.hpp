#pragma once
// Everything a user of the engine includes.

#include "ecsia/base/error.hpp"
#include "ecsia/command/command_buffer.hpp"
#include "ecsia/snapshot/state_hash.hpp"
#include "ecsia/world/world.hpp"
