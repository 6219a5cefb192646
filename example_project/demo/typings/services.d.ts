// The services of django-feathers example, as the OpenAPI schema describes them.
// Written by `manage.py services_types`: edit the serializers and services, not this file.
import type { Id, NullableId, Paginated, Params } from '@feathersjs/feathers'

/** A login: `local` with the login field and password, `jwt` with a token to re-authenticate, `refresh` with a refresh token to trade for new tokens (it is spent: presenting it again ends its login), or any strategy the project enables. */
export interface AuthenticationRequest {
  strategy: string
  /** For the `jwt` strategy. */
  accessToken?: string
  /** For the `local` strategy: the login. */
  email?: string
  /** For the `local` strategy. */
  password?: string
  /** For the `refresh` strategy; in cookie mode it is left out and the refresh cookie is read instead. */
  refreshToken?: string
  [key: string]: unknown
}

export interface AuthenticationResult {
  /** A JWT for `Authorization: Bearer`. */
  accessToken: string
  /** Answered by every login that issues a new access token: a single-use token for `{strategy: 'refresh'}` (not in cookie mode, where it is set as an HttpOnly cookie). */
  refreshToken?: string
  authentication: {
    strategy: string
    accessToken?: string
    /** The claims of the token. */
    payload?: Record<string, unknown>
  }
  /** The authenticated user. */
  user?: Record<string, unknown>
}

/** The body of every error, as Feathers sends it. */
export interface FeathersError {
  name: string
  message: string
  code: number
  className: string
  /** Extra data of the error. */
  data?: unknown
  /** Per-field messages of a validation error. */
  errors?: Record<string, unknown> | unknown[]
}

export interface Message {
  readonly id: number
  text: string
  readonly userId: number
  readonly createdAt: string
}

export interface MessageRequest {
  text: string
}

/** A Message answered with `$select`: the selected fields and the id. */
export interface MessageSelection {
  readonly id: number
  text?: string
  readonly userId?: number
  readonly createdAt?: string
}

export interface Note {
  readonly id: number
  text: string
  readonly userId: number
  readonly updatedAt: string
}

export interface NoteRequest {
  text: string
}

/** A Note answered with `$select`: the selected fields and the id. */
export interface NoteSelection {
  readonly id: number
  text?: string
  readonly userId?: number
  readonly updatedAt?: string
}

export interface PatchedMessageRequest {
  text?: string
}

export interface PatchedNoteRequest {
  text?: string
}

export interface PatchedTodoRequest {
  text?: string
  complete?: boolean
}

/** The default users serializer: the primary key, the login and email fields, the password. The raw password is taken as given (no trimming, no model `max_length`: the stored value is the hash) and is write-only. */
export interface PatchedUserRequest {
  email?: string
  password?: string
}

export interface Todo {
  readonly id: number
  text: string
  complete: boolean
  readonly userId: number
}

export interface TodoRequest {
  text: string
  complete?: boolean
}

/** A Todo answered with `$select`: the selected fields and the id. */
export interface TodoSelection {
  readonly id: number
  text?: string
  complete?: boolean
  readonly userId?: number
}

/** The default users serializer: the primary key, the login and email fields, the password. The raw password is taken as given (no trimming, no model `max_length`: the stored value is the hash) and is write-only. */
export interface User {
  readonly id: number
  email: string
}

/** The default users serializer: the primary key, the login and email fields, the password. The raw password is taken as given (no trimming, no model `max_length`: the stored value is the hash) and is write-only. */
export interface UserRequest {
  email: string
  password: string
}

/** A User answered with `$select`: the selected fields and the id. */
export interface UserSelection {
  readonly id: number
  email?: string
}

export type TodosRecord = Todo
export type TodosData = TodoRequest
export type TodosPatch = PatchedTodoRequest
export interface TodosConditions {
  id?: number | {
    $in?: number[]
    $nin?: number[]
    $lt?: number
    $lte?: number
    $gt?: number
    $gte?: number
    $ne?: number
  }
  text?: string | {
    $in?: string[]
    $nin?: string[]
    $lt?: string
    $lte?: string
    $gt?: string
    $gte?: string
    $ne?: string
  }
  complete?: boolean | {
    $in?: boolean[]
    $nin?: boolean[]
    $lt?: boolean
    $lte?: boolean
    $gt?: boolean
    $gte?: boolean
    $ne?: boolean
  }
  userId?: number | {
    $in?: number[]
    $nin?: number[]
    $lt?: number
    $lte?: number
    $gt?: number
    $gte?: number
    $ne?: number
  }
}

export interface TodosQuery extends TodosConditions {
  $limit?: number
  $skip?: number
  $sort?: {
    id?: 1 | -1
    text?: 1 | -1
    complete?: 1 | -1
    userId?: 1 | -1
  }
  $select?: ("id" | "text" | "complete" | "userId")[]
  $or?: TodosConditions[]
  $and?: TodosConditions[]
}

export interface TodosService {
  find(params?: Params<TodosQuery>): Promise<TodosRecord[]>
  get(id: Id, params?: Params<TodosQuery>): Promise<TodosRecord>
  create(data: TodosData, params?: Params<TodosQuery>): Promise<TodosRecord>
  update(id: Id, data: TodosData, params?: Params<TodosQuery>): Promise<TodosRecord>
  patch(id: Id, data: TodosPatch, params?: Params<TodosQuery>): Promise<TodosRecord>
  remove(id: Id, params?: Params<TodosQuery>): Promise<TodosRecord>
  remove(id: null, params?: Params<TodosQuery>): Promise<TodosRecord[]>
  remove(id: NullableId, params?: Params<TodosQuery>): Promise<TodosRecord | TodosRecord[]>
  /** Complete every todo of the caller that the query matches; answer how many changed. */
  markAllComplete(data: unknown, params?: Params<TodosQuery>): Promise<{ [key: string]: number }>
}

export type ApiV1MessagesRecord = Message
export type ApiV1MessagesData = MessageRequest
export type ApiV1MessagesPatch = PatchedMessageRequest
export interface ApiV1MessagesConditions {
  id?: number | {
    $in?: number[]
    $nin?: number[]
    $lt?: number
    $lte?: number
    $gt?: number
    $gte?: number
    $ne?: number
  }
  text?: string | {
    $in?: string[]
    $nin?: string[]
    $lt?: string
    $lte?: string
    $gt?: string
    $gte?: string
    $ne?: string
    $like?: string
    $ilike?: string
  }
  userId?: number | {
    $in?: number[]
    $nin?: number[]
    $lt?: number
    $lte?: number
    $gt?: number
    $gte?: number
    $ne?: number
  }
  createdAt?: string | {
    $in?: string[]
    $nin?: string[]
    $lt?: string
    $lte?: string
    $gt?: string
    $gte?: string
    $ne?: string
  }
}

export interface ApiV1MessagesQuery extends ApiV1MessagesConditions {
  $limit?: number
  $skip?: number
  $sort?: {
    id?: 1 | -1
    text?: 1 | -1
    userId?: 1 | -1
    createdAt?: 1 | -1
  }
  $select?: ("id" | "text" | "userId" | "createdAt")[]
  $or?: ApiV1MessagesConditions[]
  $and?: ApiV1MessagesConditions[]
}

export interface ApiV1MessagesService {
  find(params?: Params<ApiV1MessagesQuery>): Promise<Paginated<ApiV1MessagesRecord>>
  get(id: Id, params?: Params<ApiV1MessagesQuery>): Promise<ApiV1MessagesRecord>
  create(data: ApiV1MessagesData, params?: Params<ApiV1MessagesQuery>): Promise<ApiV1MessagesRecord>
  update(id: Id, data: ApiV1MessagesData, params?: Params<ApiV1MessagesQuery>): Promise<ApiV1MessagesRecord>
  patch(id: Id, data: ApiV1MessagesPatch, params?: Params<ApiV1MessagesQuery>): Promise<ApiV1MessagesRecord>
  remove(id: Id, params?: Params<ApiV1MessagesQuery>): Promise<ApiV1MessagesRecord>
}

export type UsersRecord = User
export type UsersData = UserRequest
export type UsersPatch = PatchedUserRequest
export interface UsersConditions {
  id?: number | {
    $in?: number[]
    $nin?: number[]
    $lt?: number
    $lte?: number
    $gt?: number
    $gte?: number
    $ne?: number
  }
  email?: string | {
    $in?: string[]
    $nin?: string[]
    $lt?: string
    $lte?: string
    $gt?: string
    $gte?: string
    $ne?: string
  }
}

export interface UsersQuery extends UsersConditions {
  $limit?: number
  $skip?: number
  $sort?: {
    id?: 1 | -1
    email?: 1 | -1
  }
  $select?: ("id" | "email")[]
  $or?: UsersConditions[]
  $and?: UsersConditions[]
}

export interface UsersService {
  find(params?: Params<UsersQuery>): Promise<Paginated<UsersRecord>>
  get(id: Id, params?: Params<UsersQuery>): Promise<UsersRecord>
  create(data: UsersData, params?: Params<UsersQuery>): Promise<UsersRecord>
  update(id: Id, data: UsersData, params?: Params<UsersQuery>): Promise<UsersRecord>
  patch(id: Id, data: UsersPatch, params?: Params<UsersQuery>): Promise<UsersRecord>
  remove(id: Id, params?: Params<UsersQuery>): Promise<UsersRecord>
}

export type UsersUserIdNotesRecord = Note
export type UsersUserIdNotesData = NoteRequest
export type UsersUserIdNotesPatch = PatchedNoteRequest
export interface UsersUserIdNotesConditions {
  id?: number | {
    $in?: number[]
    $nin?: number[]
    $lt?: number
    $lte?: number
    $gt?: number
    $gte?: number
    $ne?: number
  }
  text?: string | {
    $in?: string[]
    $nin?: string[]
    $lt?: string
    $lte?: string
    $gt?: string
    $gte?: string
    $ne?: string
  }
  userId?: number | {
    $in?: number[]
    $nin?: number[]
    $lt?: number
    $lte?: number
    $gt?: number
    $gte?: number
    $ne?: number
  }
  updatedAt?: string | {
    $in?: string[]
    $nin?: string[]
    $lt?: string
    $lte?: string
    $gt?: string
    $gte?: string
    $ne?: string
  }
}

export interface UsersUserIdNotesQuery extends UsersUserIdNotesConditions {
  $limit?: number
  $skip?: number
  $sort?: {
    id?: 1 | -1
    text?: 1 | -1
    userId?: 1 | -1
    updatedAt?: 1 | -1
  }
  $select?: ("id" | "text" | "userId" | "updatedAt")[]
  $or?: UsersUserIdNotesConditions[]
  $and?: UsersUserIdNotesConditions[]
}

export interface UsersUserIdNotesService {
  find(params?: Params<UsersUserIdNotesQuery>): Promise<UsersUserIdNotesRecord[]>
  get(id: Id, params?: Params<UsersUserIdNotesQuery>): Promise<UsersUserIdNotesRecord>
  create(data: UsersUserIdNotesData, params?: Params<UsersUserIdNotesQuery>): Promise<UsersUserIdNotesRecord>
  update(id: Id, data: UsersUserIdNotesData, params?: Params<UsersUserIdNotesQuery>): Promise<UsersUserIdNotesRecord>
  patch(id: Id, data: UsersUserIdNotesPatch, params?: Params<UsersUserIdNotesQuery>): Promise<UsersUserIdNotesRecord>
  remove(id: Id, params?: Params<UsersUserIdNotesQuery>): Promise<UsersUserIdNotesRecord>
  remove(id: null, params?: Params<UsersUserIdNotesQuery>): Promise<UsersUserIdNotesRecord[]>
  remove(id: NullableId, params?: Params<UsersUserIdNotesQuery>): Promise<UsersUserIdNotesRecord | UsersUserIdNotesRecord[]>
}

export type AuthenticationRecord = AuthenticationResult
export type AuthenticationData = AuthenticationRequest
export type AuthenticationPatch = AuthenticationRequest
export type AuthenticationQuery = Record<string, unknown>

export interface AuthenticationService {
  create(data: AuthenticationData, params?: Params<AuthenticationQuery>): Promise<AuthenticationRecord>
  remove(id: NullableId, params?: Params<AuthenticationQuery>): Promise<AuthenticationRecord>
}

/** The services by path: `feathers<ServiceTypes>()`. */
export interface ServiceTypes {
  "todos": TodosService
  "api/v1/messages": ApiV1MessagesService
  "users": UsersService
  "users/:userId/notes": UsersUserIdNotesService
  "authentication": AuthenticationService
}
