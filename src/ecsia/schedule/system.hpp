#pragma once
// The schedule layer: systems, the plan that layers them into waves, and the frame that runs the
// plan on the serial executor or a worker pool. This file: what a system declares and what its
// kernel gets.
//
// A worker system has ONE kernel used by both executors. It is called once per batch (a run of
// rows of one matched table; a system whose query has no terms is called once per frame with an
// empty batch). Kernels write values in place (through the chunk's write access) and record every
// structural change in ctx.commands; both executors merge the same way, so they agree by
// construction (G1).

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ecsia/command/command_buffer.hpp"
#include "ecsia/command/topic_writer.hpp"
#include "ecsia/entity/entity_reservation.hpp"
#include "ecsia/query/chunk.hpp"
#include "ecsia/query/query_desc.hpp"
#include "ecsia/relation/relation.hpp"
#include "ecsia/schedule/lookup.hpp"
#include "ecsia/schedule/lookup_memo.hpp"
#include "ecsia/topic/topic_messages.hpp"

namespace ecsia {

class World;
class TopicStore;

namespace detail {
struct KernelContextAccess;
}  // namespace detail

// What a kernel gets for one batch. It belongs to the thread running that batch: lookup() keeps a
// memo in it, so it must not be shared with threads the kernel starts itself.
class KernelContext {
public:
    // What the scheduler hands a batch besides its chunk: the system's declarations and the world
    // they refer to. A context made without it (a main-thread system calling a kernel on its
    // chunks) refuses lookups, topics and target_of, and keeps no notes.
    struct Wiring {
        std::vector<std::string>* notes = nullptr;  // the batch's notes (Batch::notes)
        const World* world = nullptr;
        std::span<const ComponentId> lookups = {};  // the system's SystemDesc::lookups
        // The columns of the wave's looked-up components (refreshed before the wave).
        const LookupColumnCache* lookup_columns = nullptr;
        // What publish() may publish, and the messages messages() returns, one view per consumed
        // topic, fixed before the wave.
        const TopicStore* topics = nullptr;
        std::span<const TopicId> publishes = {};
        std::span<const TopicWindow> consumed = {};
        std::span<const TopicMessages> consumed_messages = {};
    };

    KernelContext(Chunk& chunk, float dt, CommandBuffer& commands, EntityReservation& reservation,
                  const HandleLayout& layout, std::uint32_t batch_id, std::uint64_t frame,
                  const Wiring& wiring) noexcept
        : chunk(chunk), dt(dt), commands(commands), reservation(reservation), layout(layout),
          batch_id(batch_id), frame(frame), wiring_(wiring) {}
    KernelContext(Chunk& chunk, float dt, CommandBuffer& commands, EntityReservation& reservation,
                  const HandleLayout& layout, std::uint32_t batch_id, std::uint64_t frame) noexcept
        : KernelContext(chunk, dt, commands, reservation, layout, batch_id, frame, Wiring{}) {}

    Chunk& chunk;
    float dt;
    CommandBuffer& commands;
    EntityReservation& reservation;
    const HandleLayout& layout;
    std::uint32_t batch_id;     // fixed by the plan: same in every executor, whatever the thread
    std::uint64_t frame;        // frames completed over this world before this one (SystemCursors)

    // The messages of `topic` this system has not seen yet: those published since its previous
    // run (by earlier systems of this frame, later ones of the last), in publication order. Every
    // batch of the system gets the same. UnknownTopic unless the system declares it in consumes.
    const TopicMessages& messages(TopicId topic) const;
    // Publishes a message of a topic the system declares in publishes (UnknownTopic otherwise;
    // BadValue for a size that is not the topic's). It joins the topic at the merge, in batch-id
    // order, after the messages of the batches before; an entity field may hold a handle this
    // batch spawned (made real at the merge).
    void publish(TopicId topic, const void* bytes, std::size_t size) {
        // Checked once per topic and size a batch publishes (a kernel publishes in loops).
        if (topic != publish_checked_.topic || size != publish_checked_.size) check_publish(topic, size);
        commands.publish(topic, bytes, static_cast<std::uint32_t>(size));
    }
    template <typename T>
    void publish(TopicId topic, const T& message) {
        publish(topic, &message, sizeof(T));
    }
    // For a loop that publishes many messages of `topic`: a writer whose publish() is a store and
    // an increment (publish() above re-reads the buffer's state on every call). Checked as
    // publish() is, once. Its messages join the batch's, in call order, when it goes out of scope;
    // until then publishing `topic` any other way in this batch throws WrongPhase.
    template <typename T>
    TopicWriter<T> topic_writer(TopicId topic) {
        check_publish(topic, sizeof(T));
        return TopicWriter<T>(commands, topic);
    }

    // Any live entity's value of `id`, one of the system's lookups (BadValue otherwise), as the
    // waves before this one left it: nullptr when `entity` is not alive (despawned, stale, a
    // pending handle) or lacks the component, never another entity's data (G4). Read-only, and
    // valid during this kernel call only. Inline while `id` is the component of the last lookup
    // (LookupMemo: the slot's location, which also checks the handle, then the table's column,
    // then the element), whatever table the entity is in; a call when `id` changes.
    template <typename T>
    const T* lookup(ComponentId id, Entity entity) const {
        return reinterpret_cast<const T*>(lookup_raw(id, entity));
    }
    const std::byte* lookup_raw(ComponentId id, Entity entity) const {
        return id == lookup_memo_.id ? lookup_memo_.find(entity) : lookup_full(id, entity);
    }
    // A reader of `id` for a loop of lookups: `Lookup<T>::get(entity)` answers as lookup<T>(id,
    // entity) does, faster (lookup.hpp). BadValue unless `id` is one of the system's lookups and
    // T is its size. Valid during this kernel call only.
    template <typename T>
    Lookup<T> lookup_of(ComponentId id) const {
        return Lookup<T>(lookup_memo_of(id, sizeof(T)));
    }
    // The target of `subject`'s pair of an exclusive relation (e.g. World::kChildOf: the parent),
    // or the null entity when it has none or is not alive. Pairs change only at merges, so within
    // a wave every batch sees the same. BadValue for a relation that is not exclusive.
    Entity target_of(Entity subject, RelationId relation) const;

    // Leaves a diagnostic for the merge: a kernel may run on a worker, where nothing can be
    // reported, so the merge reports the batch's notes after the wave, in batch-id order (G3),
    // also when the batch failed. The batch's results are not affected.
    void note(std::string message) {
        if (wiring_.notes != nullptr) wiring_.notes->push_back(std::move(message));
    }

    // Records a spawn and returns its handle: a reserved one, or (when the batch's reservation is
    // exhausted) a pending stand-in that later records of THIS batch may use; the merge gives it
    // a real handle in batch-id order. Used anywhere else (another batch, a later frame, a world
    // call) a pending handle is refused with an error, never taken for another entity. A batch
    // that spawns more than its wave has pending names for (PendingNames::limit) gets the null
    // handle for those spawns: they still happen, and the merge reports them.
    Entity spawn(const ComponentValue* values, std::size_t count) {
        Entity entity = reservation.take();
        if (entity.is_null()) {
            entity = next_pending();
            commands.spawn(kNullEntity, values, count);
        } else {
            commands.spawn(entity, values, count);
        }
        return entity;
    }

    // Records an instance of `prefab` (World::instantiate: its components and values, then
    // `values` over them, and the pair (IsA, prefab)) and returns its handle, named as spawn()
    // names its spawns.
    Entity instantiate(Entity prefab, const ComponentValue* values = nullptr, std::size_t count = 0) {
        Entity entity = reservation.take();
        if (entity.is_null()) {
            entity = next_pending();
            commands.instantiate(kNullEntity, prefab, values, count);
        } else {
            commands.instantiate(entity, prefab, values, count);
        }
        return entity;
    }

private:
    friend struct detail::KernelContextAccess;

    // The stand-in handle of the batch's next overflow spawn (spawn() above; the JS kernel glue,
    // which writes its spawn records itself). Same names as spawn() gives (the buffer's
    // PendingNames, fixed before the wave: no shared counter, so no thread decides them).
    Entity next_pending() noexcept { return commands.name_next_overflow_spawn(layout); }
    // lookup()'s slow path: checks the declaration and refills the memo for `id`.
    const std::byte* lookup_full(ComponentId id, Entity entity) const;
    // BadValue unless the system declares `id` in its lookups (`caller` names the call).
    void check_lookup(ComponentId id, const char* caller) const;
    LookupMemo lookup_memo_of(ComponentId id, std::size_t size) const;
    void check_publish(TopicId topic, std::size_t size);

    Wiring wiring_;
    // lookup()'s memo: of the component of the last lookup.
    mutable LookupMemo lookup_memo_ = {};
    // publish()'s last checked topic and size.
    struct PublishCheck {
        TopicId topic = kNoTopic;
        std::size_t size = 0;
    } publish_checked_ = {};
};

namespace detail {
// The JS kernel glue's way into a batch's context (wasm/js_kernel.cpp), which does in the wasm
// module what the context's calls do for a C++ kernel. Not part of the API.
struct KernelContextAccess {
    static const KernelContext::Wiring& wiring(const KernelContext& context) noexcept { return context.wiring_; }
    static Entity next_pending(KernelContext& context) noexcept { return context.next_pending(); }
};
}  // namespace detail

using Kernel = std::function<void(KernelContext&)>;
// A main-thread system (JS systems, input): runs on the coordinator in the serial slot, with full
// access to the world, including direct structural changes.
using MainThreadFn = std::function<void(World&, float dt)>;
// A main-thread system with a query: the same, and it gets the chunks its query selects, as a
// kernel's batches do: with changed/added terms, the rows changed/added since this system's
// previous run (its cursor in the world, which a snapshot carries), whoever wrote them. Writes
// through chunk.write<T>() are change-tracked at the system's tick when it returns (also when it
// throws), as a kernel's are; with access checks, its chunks refuse undeclared reads and writes.
// A direct structural change through `world` moves rows: make it after the last use of a chunk.
using MainThreadChunksFn = std::function<void(World&, float dt, std::span<Chunk> chunks)>;

struct SystemDesc {
    std::string name;
    std::vector<ComponentId> reads;
    std::vector<ComponentId> writes;
    std::vector<std::string> before;  // this system runs before these
    std::vector<std::string> after;   // and after these
    // Rows the kernel iterates; when left empty it is `with` = reads + writes.
    QueryDesc query;
    bool query_set = false;
    // Exactly one of these three is set.
    Kernel kernel;                          // worker system
    MainThreadFn main_thread;               // main-thread system
    MainThreadChunksFn main_thread_chunks;  // main-thread system that gets its query's chunks
    std::uint32_t spawns_per_batch = 0;  // reserved handles per batch (overflow still works)

    // Cascade order: an exclusive relation, e.g. World::kChildOf. The system's rows then run in
    // depth order, level after level (depth 0: rows without a target; depth d: rows whose target
    // is at depth d - 1, whether or not the query matches it); a chunk holds rows of one level
    // (Chunk::depth()). A kernel's levels are cut into batches that run in parallel like any
    // wave; a main_thread_chunks system is called once per level, with that level's chunks. Each
    // table's rows are kept grouped by depth for this (rows move within their table when depths
    // change). kNoComponent: no cascade. A main_thread system (no query) cannot take one.
    RelationId cascade = kNoComponent;
    // With cascade: components (with fields) whose parent's values the system reads through
    // chunk.parent()->column<T>(id) (in place) or ->read<T>(id) (a copy), as earlier levels of
    // this frame left them (query/parent_view.hpp). Planned like reads;
    // reading a component of the parents that the system itself writes is what levels make safe.
    std::vector<ComponentId> parent_reads;
    // Components (with fields) whose value for ANY live entity the kernel reads through
    // ctx.lookup<T>(id, entity): a unit's target's position, a neighbour's velocity. Planned like
    // reads (after the systems that write them, in another wave), so every batch sees the same
    // values whatever the thread count. A system cannot look up a component it writes (another
    // batch of it could be writing the row being read).
    std::vector<ComponentId> lookups;
    // Topics (World::define_topic) whose messages the system publishes (a kernel through
    // KernelContext::publish, a main-thread system through World::publish) and consumes
    // (KernelContext::messages, World::messages). The planner runs a consumer after the systems
    // that publish what it consumes, unless before/after says otherwise (then it sees their
    // messages next frame). Each consumer sees each message exactly once.
    std::vector<TopicId> publishes;
    std::vector<TopicId> consumes;
};

}  // namespace ecsia
