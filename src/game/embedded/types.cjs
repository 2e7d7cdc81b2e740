// @ts-check
'use strict';
/*
 * The shapes of flying-squid's objects that mindlink's plugins use, for JSDoc type checking only
 * (flying-squid ships no types). Each lists what the plugins read or call, nothing more.
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
 * @property {string} username
 * @property {{ write(name: string, params: any): void, on(event: string, fn: (...args: any[]) => void): void, off(event: string, fn: (...args: any[]) => void): void, prependListener(event: string, fn: (...args: any[]) => void): void, listeners(event: string): Function[] }} _client
 * @property {import('vec3').Vec3} position
 * @property {World} world
 * @property {{ slots: Array<Item | null>, updateSlot(slot: number, item: Item | null): void }} inventory
 * @property {number} heldItemSlot
 * @property {number} gameMode
 * @property {number} health
 * @property {number} food
 * @property {number} foodSaturation
 * @property {boolean} [crouching]
 * @property {boolean} [disconnected]
 * @property {boolean} [onGround]
 * @property {(opts: { damage: number, velocity?: import('vec3').Vec3, maxVelocity?: import('vec3').Vec3, sound?: string, animation?: boolean }) => void} takeDamage
 * @property {(pos: import('vec3').Vec3) => Promise<void>} teleport
 * @property {(event: string, fn: (...args: any[]) => void) => void} on
 * @property {(event: string, fn: (...args: any[]) => void) => void} once
 */

/**
 * A flying-squid server.
 * @typedef {object} Serv
 * @property {any} registry
 * @property {Player[]} players
 * @property {number} entityMaxId
 * @property {number} time
 * @property {number} [difficulty]
 * @property {number} tickCount
 * @property {any} overworld
 * @property {(event: string, fn: (...args: any[]) => void) => void} on
 * @property {(event: string, fn: (...args: any[]) => void) => void} once
 * @property {(name: string, fn: (data: any) => boolean | undefined | Promise<boolean | undefined>) => void} onBlockInteraction
 * @property {(world: any, pos: import('vec3').Vec3, stateId: number) => Promise<void>} setBlock
 * @property {(type: number, world: any, pos: import('vec3').Vec3, opts: object) => unknown} spawnObject
 * @property {(c: object) => { toNetworkFormat(): unknown }} _createChatComponent
 * @property {(name: string) => Player | null} getPlayer
 * @property {(text: string) => Promise<unknown>} handleCommand
 * @property {(msg: string) => void} [debug]
 */

module.exports = {};
