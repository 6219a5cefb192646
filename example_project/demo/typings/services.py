"""
The services of django-feathers example, as the OpenAPI schema describes them.

Written by `manage.py services_types`: edit the serializers and services, not this file.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class _AuthenticationRequestRequired(TypedDict):
    strategy: str


class AuthenticationRequest(_AuthenticationRequestRequired, total=False):
    """
    A login: `local` with the login field and password, `jwt` with a token to re-
    authenticate, `refresh` with a refresh token to trade for new tokens (it is spent:
    presenting it again ends its login), or any strategy the project enables.
    """

    accessToken: str
    email: str
    password: str
    refreshToken: str


class _AuthenticationResultRequired(TypedDict):
    accessToken: str
    authentication: dict[str, Any]


class AuthenticationResult(_AuthenticationResultRequired, total=False):
    refreshToken: str
    user: dict[str, Any]


class _FeathersErrorRequired(TypedDict):
    name: str
    message: str
    code: int
    className: str


class FeathersError(_FeathersErrorRequired, total=False):
    """The body of every error, as Feathers sends it."""

    data: Any
    errors: dict[str, Any] | list[Any]


class Message(TypedDict):
    id: int
    text: str
    userId: int
    createdAt: str


class MessageRequest(TypedDict):
    text: str


class _MessageSelectionRequired(TypedDict):
    id: int


class MessageSelection(_MessageSelectionRequired, total=False):
    """A Message answered with `$select`: the selected fields and the id."""

    text: str
    userId: int
    createdAt: str


class Note(TypedDict):
    id: int
    text: str
    userId: int
    updatedAt: str


class NoteRequest(TypedDict):
    text: str


class _NoteSelectionRequired(TypedDict):
    id: int


class NoteSelection(_NoteSelectionRequired, total=False):
    """A Note answered with `$select`: the selected fields and the id."""

    text: str
    userId: int
    updatedAt: str


class PatchedMessageRequest(TypedDict, total=False):
    text: str


class PatchedNoteRequest(TypedDict, total=False):
    text: str


class PatchedTodoRequest(TypedDict, total=False):
    text: str
    complete: bool


class PatchedUserRequest(TypedDict, total=False):
    """
    The default users serializer: the primary key, the login and email fields, the password.
    The raw password is taken as given (no trimming, no model `max_length`: the stored value
    is the hash) and is write-only.
    """

    email: str
    password: str


class Todo(TypedDict):
    id: int
    text: str
    complete: bool
    userId: int


class _TodoRequestRequired(TypedDict):
    text: str


class TodoRequest(_TodoRequestRequired, total=False):
    complete: bool


class _TodoSelectionRequired(TypedDict):
    id: int


class TodoSelection(_TodoSelectionRequired, total=False):
    """A Todo answered with `$select`: the selected fields and the id."""

    text: str
    complete: bool
    userId: int


class User(TypedDict):
    """
    The default users serializer: the primary key, the login and email fields, the password.
    The raw password is taken as given (no trimming, no model `max_length`: the stored value
    is the hash) and is write-only.
    """

    id: int
    email: str


class UserRequest(TypedDict):
    """
    The default users serializer: the primary key, the login and email fields, the password.
    The raw password is taken as given (no trimming, no model `max_length`: the stored value
    is the hash) and is write-only.
    """

    email: str
    password: str


class _UserSelectionRequired(TypedDict):
    id: int


class UserSelection(_UserSelectionRequired, total=False):
    """A User answered with `$select`: the selected fields and the id."""

    email: str


TodosRecord = Todo
TodosData = TodoRequest
TodosPatch = PatchedTodoRequest


TodosIdOperators = TypedDict(
    "TodosIdOperators",
    {
        "$in": "list[int]",
        "$nin": "list[int]",
        "$lt": "int",
        "$lte": "int",
        "$gt": "int",
        "$gte": "int",
        "$ne": "int",
    },
    total=False,
)


TodosTextOperators = TypedDict(
    "TodosTextOperators",
    {
        "$in": "list[str]",
        "$nin": "list[str]",
        "$lt": "str",
        "$lte": "str",
        "$gt": "str",
        "$gte": "str",
        "$ne": "str",
    },
    total=False,
)


TodosCompleteOperators = TypedDict(
    "TodosCompleteOperators",
    {
        "$in": "list[bool]",
        "$nin": "list[bool]",
        "$lt": "bool",
        "$lte": "bool",
        "$gt": "bool",
        "$gte": "bool",
        "$ne": "bool",
    },
    total=False,
)


TodosUserIdOperators = TypedDict(
    "TodosUserIdOperators",
    {
        "$in": "list[int]",
        "$nin": "list[int]",
        "$lt": "int",
        "$lte": "int",
        "$gt": "int",
        "$gte": "int",
        "$ne": "int",
    },
    total=False,
)


class TodosConditions(TypedDict, total=False):
    id: int | TodosIdOperators
    text: str | TodosTextOperators
    complete: bool | TodosCompleteOperators
    userId: int | TodosUserIdOperators


TodosQuery = TypedDict(
    "TodosQuery",
    {
        "id": "int | TodosIdOperators",
        "text": "str | TodosTextOperators",
        "complete": "bool | TodosCompleteOperators",
        "userId": "int | TodosUserIdOperators",
        "$limit": "int",
        "$skip": "int",
        "$sort": "dict[str, Literal[1, -1]]",
        "$select": 'list[Literal["id", "text", "complete", "userId"]]',
        "$or": "list[TodosConditions]",
        "$and": "list[TodosConditions]",
    },
    total=False,
)


ApiV1MessagesRecord = Message
ApiV1MessagesData = MessageRequest
ApiV1MessagesPatch = PatchedMessageRequest


ApiV1MessagesIdOperators = TypedDict(
    "ApiV1MessagesIdOperators",
    {
        "$in": "list[int]",
        "$nin": "list[int]",
        "$lt": "int",
        "$lte": "int",
        "$gt": "int",
        "$gte": "int",
        "$ne": "int",
    },
    total=False,
)


ApiV1MessagesTextOperators = TypedDict(
    "ApiV1MessagesTextOperators",
    {
        "$in": "list[str]",
        "$nin": "list[str]",
        "$lt": "str",
        "$lte": "str",
        "$gt": "str",
        "$gte": "str",
        "$ne": "str",
        "$like": "str",
        "$ilike": "str",
    },
    total=False,
)


ApiV1MessagesUserIdOperators = TypedDict(
    "ApiV1MessagesUserIdOperators",
    {
        "$in": "list[int]",
        "$nin": "list[int]",
        "$lt": "int",
        "$lte": "int",
        "$gt": "int",
        "$gte": "int",
        "$ne": "int",
    },
    total=False,
)


ApiV1MessagesCreatedAtOperators = TypedDict(
    "ApiV1MessagesCreatedAtOperators",
    {
        "$in": "list[str]",
        "$nin": "list[str]",
        "$lt": "str",
        "$lte": "str",
        "$gt": "str",
        "$gte": "str",
        "$ne": "str",
    },
    total=False,
)


class ApiV1MessagesConditions(TypedDict, total=False):
    id: int | ApiV1MessagesIdOperators
    text: str | ApiV1MessagesTextOperators
    userId: int | ApiV1MessagesUserIdOperators
    createdAt: str | ApiV1MessagesCreatedAtOperators


ApiV1MessagesQuery = TypedDict(
    "ApiV1MessagesQuery",
    {
        "id": "int | ApiV1MessagesIdOperators",
        "text": "str | ApiV1MessagesTextOperators",
        "userId": "int | ApiV1MessagesUserIdOperators",
        "createdAt": "str | ApiV1MessagesCreatedAtOperators",
        "$limit": "int",
        "$skip": "int",
        "$sort": "dict[str, Literal[1, -1]]",
        "$select": 'list[Literal["id", "text", "userId", "createdAt"]]',
        "$or": "list[ApiV1MessagesConditions]",
        "$and": "list[ApiV1MessagesConditions]",
    },
    total=False,
)


class ApiV1MessagesPage(TypedDict):
    total: int
    limit: int | None
    skip: int
    data: list[ApiV1MessagesRecord]


UsersRecord = User
UsersData = UserRequest
UsersPatch = PatchedUserRequest


UsersIdOperators = TypedDict(
    "UsersIdOperators",
    {
        "$in": "list[int]",
        "$nin": "list[int]",
        "$lt": "int",
        "$lte": "int",
        "$gt": "int",
        "$gte": "int",
        "$ne": "int",
    },
    total=False,
)


UsersEmailOperators = TypedDict(
    "UsersEmailOperators",
    {
        "$in": "list[str]",
        "$nin": "list[str]",
        "$lt": "str",
        "$lte": "str",
        "$gt": "str",
        "$gte": "str",
        "$ne": "str",
    },
    total=False,
)


class UsersConditions(TypedDict, total=False):
    id: int | UsersIdOperators
    email: str | UsersEmailOperators


UsersQuery = TypedDict(
    "UsersQuery",
    {
        "id": "int | UsersIdOperators",
        "email": "str | UsersEmailOperators",
        "$limit": "int",
        "$skip": "int",
        "$sort": "dict[str, Literal[1, -1]]",
        "$select": 'list[Literal["id", "email"]]',
        "$or": "list[UsersConditions]",
        "$and": "list[UsersConditions]",
    },
    total=False,
)


class UsersPage(TypedDict):
    total: int
    limit: int | None
    skip: int
    data: list[UsersRecord]


UsersUserIdNotesRecord = Note
UsersUserIdNotesData = NoteRequest
UsersUserIdNotesPatch = PatchedNoteRequest


UsersUserIdNotesIdOperators = TypedDict(
    "UsersUserIdNotesIdOperators",
    {
        "$in": "list[int]",
        "$nin": "list[int]",
        "$lt": "int",
        "$lte": "int",
        "$gt": "int",
        "$gte": "int",
        "$ne": "int",
    },
    total=False,
)


UsersUserIdNotesTextOperators = TypedDict(
    "UsersUserIdNotesTextOperators",
    {
        "$in": "list[str]",
        "$nin": "list[str]",
        "$lt": "str",
        "$lte": "str",
        "$gt": "str",
        "$gte": "str",
        "$ne": "str",
    },
    total=False,
)


UsersUserIdNotesUserIdOperators = TypedDict(
    "UsersUserIdNotesUserIdOperators",
    {
        "$in": "list[int]",
        "$nin": "list[int]",
        "$lt": "int",
        "$lte": "int",
        "$gt": "int",
        "$gte": "int",
        "$ne": "int",
    },
    total=False,
)


UsersUserIdNotesUpdatedAtOperators = TypedDict(
    "UsersUserIdNotesUpdatedAtOperators",
    {
        "$in": "list[str]",
        "$nin": "list[str]",
        "$lt": "str",
        "$lte": "str",
        "$gt": "str",
        "$gte": "str",
        "$ne": "str",
    },
    total=False,
)


class UsersUserIdNotesConditions(TypedDict, total=False):
    id: int | UsersUserIdNotesIdOperators
    text: str | UsersUserIdNotesTextOperators
    userId: int | UsersUserIdNotesUserIdOperators
    updatedAt: str | UsersUserIdNotesUpdatedAtOperators


UsersUserIdNotesQuery = TypedDict(
    "UsersUserIdNotesQuery",
    {
        "id": "int | UsersUserIdNotesIdOperators",
        "text": "str | UsersUserIdNotesTextOperators",
        "userId": "int | UsersUserIdNotesUserIdOperators",
        "updatedAt": "str | UsersUserIdNotesUpdatedAtOperators",
        "$limit": "int",
        "$skip": "int",
        "$sort": "dict[str, Literal[1, -1]]",
        "$select": 'list[Literal["id", "text", "userId", "updatedAt"]]',
        "$or": "list[UsersUserIdNotesConditions]",
        "$and": "list[UsersUserIdNotesConditions]",
    },
    total=False,
)


AuthenticationRecord = AuthenticationResult
AuthenticationData = AuthenticationRequest
AuthenticationPatch = AuthenticationRequest
AuthenticationQuery = dict[str, Any]
