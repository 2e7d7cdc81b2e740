// @ts-check
'use strict';
/*
 * The shapes of flying-squid's objects that mindlink's plugins use, for JSDoc type checking only
 * (flying-squid ships no types). Each lists what the plugins read or call, nothing more.
 */

/**
 * minecraft-data's tables for the world's version (what prismarine-registry gives flying-squid as `registry`).
 * @typedef {import('minecraft-data').IndexedData} Registry
 */

/**
 * prismarine-item's Item class for a registry. (Its types declare an ES default export; its CommonJS module is
 * the loader function itself, so a `require` of it is cast to {@link ItemLoader}.)
 * @typedef {typeof import('prismarine-item').Item} ItemClass
 * @typedef {(registry: unknown) => ItemClass} ItemLoader
 */

/**
 * A flying-squid entity (an item on the ground, a mob, a player's own entity).
 * @typedef {object} Entity
 * @property {number} id
 * @property {string} type `player`, `mob`, `object`
 * @property {Array<Entity | Player>} nearbyEntities
 * @property {number} [itemId]
 * @property {number} [itemCount]
 * @property {import('vec3').Vec3} position
 * @property {import('vec3').Vec3} [knownPosition] where the others were last told it is
 * @property {number} yaw
 * @property {number} pitch
 * @property {boolean} [onGround]
 * @property {number} viewDistance how far (blocks) the others track it
 * @property {() => Array<Entity | Player>} getNearbyPlayers the players within its view distance
 * @property {() => void} [flushMoves] sends its pending moves now (moves.cjs)
 * @property {(name: string, fields: Record<string, unknown>) => void} _writeOthersNearby
 * @property {() => void} destroy
 */

/**
 * A chat component (the JSON form; respawn.cjs writes it as NBT where the version wants that).
 * @typedef {{ text?: string, translate?: string, with?: ChatComponent[] }} ChatComponent
 */

/**
 * What killed a player, when damage kills it: the death message's translation key and its arguments after the
 * player's name (`death.attack.mob` with the zombie's name: "demo was slain by Zombie").
 * @typedef {{ key: string, with: ChatComponent[] }} DeathCause
 */

/**
 * A prismarine-item Item.
 * @typedef {object} Item
 * @property {number} type
 * @property {number} count
 * @property {number} [slot]
 * @property {number} [stackSize]
 * @property {number} [metadata]
 * @property {unknown} [nbt]
 * @property {string} [name]
 */

/**
 * The part of a prismarine-world World the plugins use.
 * @typedef {object} World
 * @property {(pos: import('vec3').Vec3) => Promise<number>} getBlockType
 * @property {(pos: import('vec3').Vec3) => Promise<number>} getBlockStateId
 * @property {{ getBlockStateId(pos: import('vec3').Vec3): number, getColumnAt(pos: import('vec3').Vec3): unknown }} sync
 */

/**
 * A flying-squid player.
 * @typedef {object} Player
 * @property {number} id
 * @property {'player'} type
 * @property {Array<Entity | Player>} nearbyEntities
 * @property {string} username
 * @property {{ write(name: string, params: any): void, end(reason: string): void, username: string, latency?: number, on(event: string, fn: (...args: any[]) => void): void, off(event: string, fn: (...args: any[]) => void): void, prependListener(event: string, fn: (...args: any[]) => void): void, listeners(event: string): Function[] }} _client
 * @property {import('vec3').Vec3} position
 * @property {World} world
 * @property {{ slots: Array<Item | null>, updateSlot(slot: number, item: Item | null): void, firstEmptyInventorySlot(): number | null | undefined }} inventory
 * @property {number} heldItemSlot
 * @property {number} gameMode
 * @property {number} health
 * @property {number} food
 * @property {number} foodSaturation
 * @property {boolean} [crouching]
 * @property {boolean} [disconnected]
 * @property {boolean} [onGround]
 * @property {boolean} [inWater]
 * @property {(opts: { damage: number, velocity?: import('vec3').Vec3, maxVelocity?: import('vec3').Vec3, sound?: string, animation?: boolean, death?: DeathCause }) => void} takeDamage
 *   `death`: what kills it, if this damage does (respawn.cjs)
 * @property {(health: number) => void} updateHealth sets its health and sends it its health packet
 * @property {(pos: import('vec3').Vec3) => Promise<void>} teleport
 * @property {(pos: import('vec3').Vec3, onGround: boolean, teleport?: boolean) => Promise<unknown>} sendPosition moves it (the others are told)
 * @property {(pos?: import('vec3').Vec3) => void} sendSelfPosition sets its position (if given) and sends it to its client
 * @property {(entities: Array<Entity | Player>) => void} despawnEntities takes entities out of its client's view
 * @property {() => void} _sendRespawn flying-squid's respawn packet (the shape of versions before 1.20.5)
 * @property {number} [prevGameMode]
 * @property {number} xp
 * @property {(xp: number) => void} setXp sets its experience and sends it
 * @property {(name: string, data: object, onSuccess?: (data: object) => unknown) => Promise<unknown>} behavior
 *   emits `name` (cancellable) and `name_done` around `onSuccess`
 * @property {() => Promise<void>} worldSendRestOfChunks sends the chunks of its view it does not have yet
 * @property {() => void} updateAndSpawn spawns the entities that came near it to it (and it to the players near it), despawns those gone
 * @property {(event: string, fn: (...args: any[]) => void) => void} on
 * @property {(event: string, fn: (...args: any[]) => void) => void} once
 * @property {(entity: Entity) => void} [collect]
 * @property {(pos: import('vec3').Vec3, stateId: number) => void} sendBlock
 * @property {(sound: string) => void} playSoundAtSelf
 * @property {(packet: string, fields: Record<string, unknown>) => void} _writeOthers
 * @property {string} [uuid]
 * @property {unknown[]} [profileProperties]
 * @property {number} [entityType]
 * @property {() => Promise<unknown>} save writes the player's data file
 * @property {(reason: string) => void} kick
 * @property {() => Promise<unknown>} findSpawnPoint
 * @property {() => Promise<void>} login
 */

/**
 * A flying-squid server.
 * @typedef {object} Serv
 * @property {Registry} registry
 * @property {Player[]} players
 * @property {Record<number, unknown>} entities every entity by id: the players and the items lying about
 * @property {number} entityMaxId
 * @property {number} time
 * @property {number} [difficulty]
 * @property {number} tickCount
 * @property {any} overworld
 * @property {(event: string, fn: (...args: any[]) => void) => void} on
 * @property {(event: string, fn: (...args: any[]) => void) => void} once
 * @property {boolean} [pluginsReady] set once every plugin has loaded
 * @property {number} listeningPort
 * @property {(reason: string) => Promise<unknown>} quit kicks everyone with `reason`, then closes
 * @property {() => void} [stopTickInterval]
 * @property {() => Promise<import('vec3').Vec3>} getSpawnPoint
 * @property {(feature: string) => boolean} supportFeature
 * @property {(player: Player) => void} _sendPlayerList
 * @property {(name: string, fn: (data: any) => boolean | undefined | Promise<boolean | undefined>) => void} onBlockInteraction
 * @property {(world: any, pos: import('vec3').Vec3, stateId: number) => Promise<void>} setBlock
 * @property {(type: number, world: any, pos: import('vec3').Vec3, opts: object) => unknown} spawnObject
 * @property {(c: object) => { toNetworkFormat(): unknown }} _createChatComponent
 * @property {(name: string) => Player | null} getPlayer
 * @property {(text: string) => Promise<unknown>} handleCommand
 * @property {(msg: string) => void} [debug]
 * @property {(name: string, fields: unknown, players: Player[]) => void} _writeArray
 * @property {(name: string, fields: unknown) => void} _writeAll
 * @property {(loc: unknown) => Player[]} getNearby
 * @property {(loc: unknown) => Array<Entity | Player>} getNearbyEntities
 * @property {(message: unknown, opts?: { whitelist?: Player | Player[] } & Record<string, unknown>) => void} broadcast
 */

module.exports = {};
